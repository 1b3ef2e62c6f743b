/** The cadence model: when each source should be fetched next. Pure Java, no framework. */
package io.freshet.cadence;
