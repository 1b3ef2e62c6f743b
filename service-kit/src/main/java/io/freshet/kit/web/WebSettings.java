package io.freshet.kit.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * {@code freshet.web.*}: the kit's web settings, the same in every service.
 *
 * @param maxBodyBytes the largest request body a controller reads (413 beyond)
 */
@ConfigurationProperties("freshet.web")
public record WebSettings(@DefaultValue("1MB") DataSize maxBodyBytes) {}
