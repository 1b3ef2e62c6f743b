#!/usr/bin/env python3
"""Writes the feed corpus under src/test/resources/corpus: documents imitating the structure of
real feeds (publishing platforms, feed generators, and the quirks real feeds carry), each with an
.expected file naming the items a feed reader shows and their dates. The documents are the test's
input; this script is how they were made, kept so the corpus can be extended consistently.

Expected file: '#' lines are comments; 'content-type: ...' is served as the HTTP header; each
other line is 'id | url | title | published' as the worker identifies the item (its own id, else
its link), '-' for none, '~' as id for an item identified by a hash of title and date, '{root}'
for the loopback server the test serves the document from. Items are listed once (a duplicate id
is dropped, the first stands), in document order; published is an instant or 'null' (no date, or
one that cannot be: before 1990 or far in the future; the test's clock is 2026-11-24T12:00Z).

Run: python3 fetch-worker/src/test/corpus/generate.py
"""
import json
import os
import sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "corpus")
DOCS = []


def doc(name, body, ctype, items, note=""):
    if isinstance(body, str):
        body = body.encode("utf-8")
    DOCS.append((name, body, ctype, items, note))


def it(id_, url, title, published):
    return (id_, url, title, published)


# ----------------------------------------------------------------------------- helpers

def rss(channel_extra, items_xml, ns="", version="2.0", title="A site", link="https://site.example/",
        prolog='<?xml version="1.0" encoding="UTF-8"?>\n'):
    return (f'{prolog}<rss version="{version}"{ns}>\n<channel>\n<title>{title}</title>\n'
            f'<link>{link}</link>\n<description>Posts</description>\n{channel_extra}'
            f'{items_xml}</channel>\n</rss>\n')


def rss_item(title=None, link=None, guid=None, pub=None, desc="A post.", extra="", permalink=None):
    s = "<item>\n"
    if title is not None:
        s += f"  <title>{title}</title>\n"
    if link is not None:
        s += f"  <link>{link}</link>\n"
    if guid is not None:
        attr = "" if permalink is None else f' isPermaLink="{permalink}"'
        s += f"  <guid{attr}>{guid}</guid>\n"
    if pub is not None:
        s += f"  <pubDate>{pub}</pubDate>\n"
    if desc is not None:
        s += f"  <description>{desc}</description>\n"
    return s + extra + "</item>\n"


def atom(feed_extra, entries_xml, attrs='', title="A blog",
         prolog='<?xml version="1.0" encoding="utf-8"?>\n'):
    return (f'{prolog}<feed xmlns="http://www.w3.org/2005/Atom"{attrs}>\n<title>{title}</title>\n'
            f'<id>urn:feed:{title}</id>\n<updated>2026-11-20T10:00:00Z</updated>\n'
            f'{feed_extra}{entries_xml}</feed>\n')


def atom_entry(id_, href, title, published=None, updated=None, extra="", content="A post."):
    s = f"<entry>\n  <id>{id_}</id>\n  <title>{title}</title>\n"
    if href is not None:
        s += f'  <link rel="alternate" type="text/html" href="{href}"/>\n'
    if published is not None:
        s += f"  <published>{published}</published>\n"
    if updated is not None:
        s += f"  <updated>{updated}</updated>\n"
    if content is not None:
        s += f'  <content type="html">{content}</content>\n'
    return s + extra + "</entry>\n"


WP_NS = (' xmlns:content="http://purl.org/rss/1.0/modules/content/"'
         ' xmlns:wfw="http://wellformedweb.org/CommentAPI/"'
         ' xmlns:dc="http://purl.org/dc/elements/1.1/"'
         ' xmlns:atom="http://www.w3.org/2005/Atom"'
         ' xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"'
         ' xmlns:slash="http://purl.org/rss/1.0/modules/slash/"')
WP_CHANNEL = ('<atom:link href="https://wp.example/feed/" rel="self" type="application/rss+xml" />\n'
              '<lastBuildDate>Mon, 16 Feb 2026 10:00:00 +0000</lastBuildDate>\n<language>en-US</language>\n'
              '<sy:updatePeriod>\n\thourly\t</sy:updatePeriod>\n<sy:updateFrequency>\n\t1\t</sy:updateFrequency>\n'
              '<generator>https://wordpress.org/?v=6.4.3</generator>\n')


def wp_item(n, title, pub, slug=None, host="wp.example", body="<p>Text of the post.</p>"):
    slug = slug or f"post-{n}"
    link = f"https://{host}/2026/02/{slug}/"
    return link, (
        f"<item>\n  <title>{title}</title>\n  <link>{link}</link>\n"
        f"  <comments>{link}#respond</comments>\n"
        f"  <dc:creator><![CDATA[admin]]></dc:creator>\n  <pubDate>{pub}</pubDate>\n"
        f"  <category><![CDATA[News]]></category>\n"
        f'  <guid isPermaLink="false">https://{host}/?p={n}</guid>\n'
        f"  <description><![CDATA[Summary of the post [&#8230;]]]></description>\n"
        f"  <content:encoded><![CDATA[{body}]]></content:encoded>\n"
        f"  <wfw:commentRss>{link}feed/</wfw:commentRss>\n  <slash:comments>0</slash:comments>\n"
        f"</item>\n")


def wordpress(items, host="wp.example", prolog='<?xml version="1.0" encoding="UTF-8"?>', after="",
              before=""):
    xml_items = ""
    expected = []
    for n, title, pub, iso, plain in items:
        link, x = wp_item(n, title, pub, host=host)
        xml_items += x
        expected.append(it(f"https://{host}/?p={n}", link, plain, iso))
    body = (before + prolog + "\n" + rss(WP_CHANNEL, xml_items, ns=WP_NS, link=f"https://{host}",
                                         prolog="") + after)
    return body, expected


# ----------------------------------------------------------------------------- WordPress

b, e = wordpress([(101, "Spring opening hours", "Mon, 16 Feb 2026 09:57:56 +0000", "2026-02-16T09:57:56Z", "Spring opening hours"),
                  (100, "Winter market &#8211; results", "Fri, 13 Feb 2026 18:02:11 +0000", "2026-02-13T18:02:11Z", "Winter market – results"),
                  (98, "Notes &amp; minutes", "Wed, 11 Feb 2026 07:00:00 +0000", "2026-02-11T07:00:00Z", "Notes & minutes")])
doc("wordpress-basic", b, "application/rss+xml; charset=UTF-8", e, "WordPress 6: content:encoded, dc:creator, wfw, slash, sy")

b, e = wordpress([(7, "Hello world!", "Sat, 17 Jan 2026 12:00:00 +0000", "2026-01-17T12:00:00Z", "Hello world!")],
                 before="\n\n  \n")
doc("wordpress-blank-lines-before-prolog", b, "application/rss+xml; charset=UTF-8", e,
    "a plugin or theme file ending in blank lines: whitespace before the XML declaration")

b, e = wordpress([(8, "Caf\u00e9 menu", "Sat, 17 Jan 2026 12:00:00 +0000", "2026-01-17T12:00:00Z", "Caf\u00e9 menu")])
doc("wordpress-bom", b"\xef\xbb\xbf" + b.encode("utf-8"), "application/rss+xml; charset=UTF-8", e, "UTF-8 BOM")

b, e = wordpress([(9, "Deprecated notice", "Sun, 18 Jan 2026 08:30:00 +0000", "2026-01-18T08:30:00Z", "Deprecated notice")],
                 before="<br />\n<b>Deprecated</b>:  Function create_function() is deprecated in <b>/var/www/wp-content/plugins/x/x.php</b> on line <b>12</b><br />\n")
doc("wordpress-php-notice-before-prolog", b, "application/rss+xml; charset=UTF-8", e, "a PHP notice printed before the feed")

b, e = wordpress([(10, "Tickets&nbsp;on sale&hellip;", "Mon, 19 Jan 2026 08:30:00 +0000", "2026-01-19T08:30:00Z", "Tickets\u00a0on sale\u2026"),
                  (11, "Q&amp;A&colon; parking", "Tue, 20 Jan 2026 08:30:00 +0000", "2026-01-20T08:30:00Z", "Q&A: parking")])
doc("wordpress-html-entities", b, "application/rss+xml; charset=UTF-8", e, "a plugin writing HTML entities in titles")

b, e = wordpress([(12, "Sold out", "Tue, 20 Jan 2026 08:30:00 +0000", "2026-01-20T08:30:00Z", "Sold out")],
                 after="<!-- Performance optimized by W3 Total Cache -->\n<script src=\"https://stats.example/t.js\"></script>\n")
doc("wordpress-markup-after-root", b, "application/rss+xml; charset=UTF-8", e, "a cache plugin's script after </rss>")

items = [(20 + i, f"Post {i}", f"{d}", iso, f"Post {i}") for i, (d, iso) in enumerate([
    ("Mon, 02 Feb 2026 09:00:00 +0100", "2026-02-02T08:00:00Z"),
    ("Sun, 01 Feb 2026 23:30:00 -0800", "2026-02-02T07:30:00Z"),
    ("Sat, 31 Jan 2026 00:00:00 +0530", "2026-01-30T18:30:00Z")])]
b, e = wordpress(items, host="blog.wp.example")
doc("wordpress-offsets", b, "application/rss+xml; charset=UTF-8", e, "numeric offsets")

# WordPress podcast (PowerPress-like)
pod_ns = WP_NS + ' xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:googleplay="http://www.google.com/schemas/play-podcasts/1.0"'
x = ""
exp = []
for n, (pub, iso) in enumerate([("Thu, 05 Feb 2026 04:00:00 +0000", "2026-02-05T04:00:00Z"), ("Thu, 29 Jan 2026 04:00:00 +0000", "2026-01-29T04:00:00Z")]):
    link = f"https://pod.wp.example/episode-{n}/"
    x += (f"<item>\n<title>Episode {40 - n}: Rivers</title>\n<link>{link}</link>\n<pubDate>{pub}</pubDate>\n"
          f"<dc:creator><![CDATA[host]]></dc:creator>\n<guid isPermaLink=\"false\">https://pod.wp.example/?p={500 + n}</guid>\n"
          f"<description><![CDATA[Show notes]]></description>\n"
          f"<enclosure url=\"https://media.example/ep{40 - n}.mp3\" length=\"34567890\" type=\"audio/mpeg\" />\n"
          f"<itunes:subtitle>Rivers</itunes:subtitle>\n<itunes:summary>Show notes</itunes:summary>\n"
          f"<itunes:author>Host</itunes:author>\n<itunes:explicit>false</itunes:explicit>\n<itunes:duration>57:12</itunes:duration>\n"
          f"<itunes:episode>{40 - n}</itunes:episode>\n<itunes:episodeType>full</itunes:episodeType>\n</item>\n")
    exp.append(it(f"https://pod.wp.example/?p={500 + n}", link, f"Episode {40 - n}: Rivers", iso))
doc("wordpress-podcast-powerpress", rss(WP_CHANNEL + '<itunes:author>Host</itunes:author>\n<itunes:image href="https://pod.wp.example/art.jpg" />\n<itunes:category text="Science" />\n<itunes:explicit>false</itunes:explicit>\n', x, ns=pod_ns),
    "application/rss+xml; charset=UTF-8", exp)

# ----------------------------------------------------------------------------- Blogger

BLOGGER_ATTRS = (' xmlns:openSearch="http://a9.com/-/spec/opensearchrss/1.0/"'
                 ' xmlns:blogger="http://schemas.google.com/blogger/2008"'
                 ' xmlns:georss="http://www.georss.org/georss"'
                 ' xmlns:gd="http://schemas.google.com/g/2005"'
                 ' xmlns:thr="http://purl.org/syndication/thread/1.0"')


def blogger_entry(blog, post, slug, published, updated, title, edited=True):
    link = f"https://town-notes.blogspot.com/2026/02/{slug}.html"
    ex = (f'  <category scheme="http://www.blogger.com/atom/ns#" term="local"/>\n'
          f'  <link rel="replies" type="application/atom+xml" href="https://town-notes.blogspot.com/feeds/{post}/comments/default" title="Post Comments"/>\n'
          f'  <link rel="replies" type="text/html" href="https://www.blogger.com/comment/fullpage/post/{blog}/{post}" title="0 Comments"/>\n'
          f'  <link rel="edit" type="application/atom+xml" href="https://www.blogger.com/feeds/{blog}/posts/default/{post}"/>\n'
          f'  <link rel="self" type="application/atom+xml" href="https://www.blogger.com/feeds/{blog}/posts/default/{post}"/>\n'
          f'  <author><name>Town Notes</name><uri>https://www.blogger.com/profile/1</uri><email>noreply@blogger.com</email>'
          f'<gd:image rel="http://schemas.google.com/g/2005#thumbnail" width="16" height="16" src="https://img1.blogblog.com/img/b16-rounded.gif"/></author>\n'
          f'  <thr:total>0</thr:total>\n')
    if edited:
        ex += f'  <app:edited xmlns:app="http://www.w3.org/2007/app">{updated}</app:edited>\n'
    s = (f"<entry>\n  <id>tag:blogger.com,1999:blog-{blog}.post-{post}</id>\n  <published>{published}</published>\n"
         f"  <updated>{updated}</updated>\n  <title type='text'>{title}</title>\n"
         f"  <content type='html'>&lt;p&gt;Post text&lt;/p&gt;</content>\n"
         f"{ex}"
         f"  <link rel='alternate' type='text/html' href='{link}' title='{title}'/>\n</entry>\n")
    return s, link


def blogger(entries, extra_feed=""):
    blog = "7312093465342153377"
    xs, exp = "", []
    for post, slug, pub, upd, title, plain, iso in entries:
        s, link = blogger_entry(blog, post, slug, pub, upd, title)
        xs += s
        exp.append(it(f"tag:blogger.com,1999:blog-{blog}.post-{post}", link, plain, iso))
    feed_extra = (f"<category term=\"local\"/>\n<subtitle type='html'></subtitle>\n"
                  f"<link rel='http://schemas.google.com/g/2005#feed' type='application/atom+xml' href='https://town-notes.blogspot.com/feeds/posts/default'/>\n"
                  f"<link rel='self' type='application/atom+xml' href='https://www.blogger.com/feeds/{blog}/posts/default'/>\n"
                  f"<link rel='alternate' type='text/html' href='https://town-notes.blogspot.com/'/>\n"
                  f"<link rel='next' type='application/atom+xml' href='https://www.blogger.com/feeds/{blog}/posts/default?start-index=26&amp;max-results=25'/>\n"
                  f"<author><name>Town Notes</name></author>\n<generator version='7.00' uri='http://www.blogger.com'>Blogger</generator>\n"
                  f"<openSearch:totalResults>{len(entries)}</openSearch:totalResults>\n<openSearch:startIndex>1</openSearch:startIndex>\n"
                  f"<openSearch:itemsPerPage>25</openSearch:itemsPerPage>\n" + extra_feed)
    return ("<?xml version='1.0' encoding='UTF-8'?>" + atom(feed_extra, xs, attrs=BLOGGER_ATTRS, prolog="")), exp


b, e = blogger([("111", "ferry-times", "2026-02-16T01:57:00.003-08:00", "2026-02-16T02:10:41.555-08:00", "Ferry times", "Ferry times", "2026-02-16T09:57:00.003Z"),
                ("112", "old-mill", "2026-01-03T10:00:00.000-08:00", "2026-02-01T10:00:00.001-08:00", "The old mill", "The old mill", "2026-01-03T18:00:00Z")])
doc("blogger-atom", b, "application/atom+xml; charset=UTF-8", e, "Blogger: thr:, app:edited, openSearch, .000-08:00")

b, e = blogger([("113", "q-and-a", "2025-12-24T18:00:00.000+01:00", "2025-12-24T18:00:00.000+01:00", "Questions &amp; answers", "Questions & answers", "2025-12-24T17:00:00Z")])
doc("blogger-atom-ampersand", b, "application/atom+xml; charset=UTF-8", e, "an escaped ampersand in a text title")

x = ""
exp = []
for post, (pub, iso) in [("201", ("Mon, 16 Feb 2026 09:57:00 +0000", "2026-02-16T09:57:00Z")), ("202", ("Sun, 15 Feb 2026 09:00:00 +0000", "2026-02-15T09:00:00Z"))]:
    link = f"https://town-notes.blogspot.com/2026/02/p{post}.html"
    x += (f"<item><guid isPermaLink='false'>tag:blogger.com,1999:blog-1.post-{post}</guid><pubDate>{pub}</pubDate>"
          f"<atom:updated>2026-02-16T10:00:00.000Z</atom:updated><category domain='http://www.blogger.com/atom/ns#'>local</category>"
          f"<title>Post {post}</title><description>&lt;p&gt;text&lt;/p&gt;</description><link>{link}</link><author>noreply@blogger.com (Town Notes)</author>"
          f"<thr:total>0</thr:total></item>\n")
    exp.append(it(f"tag:blogger.com,1999:blog-1.post-{post}", link, f"Post {post}", iso))
doc("blogger-rss", "<?xml version='1.0' encoding='UTF-8'?>" + rss("<atom:id>tag:blogger.com,1999:blog-1</atom:id><lastBuildDate>Mon, 16 Feb 2026 10:00:00 +0000</lastBuildDate>\n", x,
    ns=' xmlns:atom="http://www.w3.org/2005/Atom" xmlns:openSearch="http://a9.com/-/spec/opensearchrss/1.0/" xmlns:blogger="http://schemas.google.com/blogger/2008" xmlns:georss="http://www.georss.org/georss" xmlns:gd="http://schemas.google.com/g/2005" xmlns:thr="http://purl.org/syndication/thread/1.0"', prolog=""),
    "application/rss+xml; charset=UTF-8", exp, "Blogger's ?alt=rss")

# old Blogger Atom 0.3
doc("blogger-atom03", """<?xml version="1.0" encoding="UTF-8"?>
<feed version="0.3" xmlns="http://purl.org/atom/ns#">
<title mode="escaped" type="text/html">Old notes</title>
<link rel="alternate" type="text/html" href="http://oldnotes.blogspot.com"/>
<modified>2009-02-01T10:00:00Z</modified>
<entry>
<link rel="alternate" type="text/html" href="http://oldnotes.blogspot.com/2009/01/snow.html"/>
<author><name>Old</name></author>
<issued>2009-01-30T08:00:00-08:00</issued>
<modified>2009-01-30T16:00:00Z</modified>
<created>2009-01-30T16:00:00Z</created>
<id>tag:blogger.com,1999:blog-9.post-1</id>
<title mode="escaped" type="text/html">Snow</title>
<content type="application/xhtml+xml" xml:base="http://oldnotes.blogspot.com" xml:space="preserve"><div xmlns="http://www.w3.org/1999/xhtml">Snow fell.</div></content>
</entry>
</feed>
""", "application/atom+xml", [it("tag:blogger.com,1999:blog-9.post-1", "http://oldnotes.blogspot.com/2009/01/snow.html", "Snow", "2009-01-30T16:00:00Z")], "Atom 0.3: issued/modified/created")

# ----------------------------------------------------------------------------- Substack


def substack(host, posts, extra=""):
    x, exp = "", []
    for slug, title, pub, iso in posts:
        link = f"https://{host}/p/{slug}"
        x += (f"<item><title><![CDATA[{title}]]></title><description><![CDATA[A short teaser.]]></description>"
              f"<link>{link}</link><guid isPermaLink=\"false\">{link}</guid><dc:creator><![CDATA[Writer]]></dc:creator>"
              f"<pubDate>{pub}</pubDate><enclosure url=\"https://substackcdn.com/image/fetch/{slug}.jpeg\" length=\"0\" type=\"image/jpeg\"/>"
              f"<content:encoded><![CDATA[<p>Body &amp; more</p>]]></content:encoded></item>")
        exp.append(it(link, link, title, iso))
    body = ('<?xml version="1.0" encoding="UTF-8"?><rss xmlns:dc="http://purl.org/dc/elements/1.1/" '
            'xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom" '
            'version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:googleplay="http://www.google.com/schemas/play-podcasts/1.0">'
            f'<channel><title><![CDATA[Letters]]></title><description><![CDATA[A newsletter]]></description><link>https://{host}</link>'
            f'<image><url>https://substackcdn.com/image/fetch/logo.png</url><title>Letters</title><link>https://{host}</link></image>'
            '<generator>Substack</generator><lastBuildDate>Mon, 16 Feb 2026 10:00:00 GMT</lastBuildDate>'
            f'<atom:link href="https://{host}/feed" rel="self" type="application/rss+xml"/><copyright><![CDATA[Writer]]></copyright>'
            '<language><![CDATA[en]]></language><webMaster><![CDATA[letters@substack.com]]></webMaster>'
            f'<itunes:owner><itunes:email><![CDATA[letters@substack.com]]></itunes:email><itunes:name><![CDATA[Writer]]></itunes:name></itunes:owner>'
            f'{extra}{x}</channel></rss>')
    return body, exp


b, e = substack("letters.substack.com", [("the-long-winter", "The long winter", "Mon, 16 Feb 2026 09:57:56 GMT", "2026-02-16T09:57:56Z"),
                                        ("on-bridges", "On bridges: a thread", "Mon, 09 Feb 2026 13:00:05 GMT", "2026-02-09T13:00:05Z")])
doc("substack", b, "application/xml; charset=utf-8", e, "Substack: CDATA everywhere, guid = link, isPermaLink=false")

b, e = substack("www.custom-domain.example", [("podcast-ep-3", "Ep. 3 \u2014 \u201cQuotes\u201d", "Tue, 03 Feb 2026 11:00:00 GMT", "2026-02-03T11:00:00Z")])
doc("substack-custom-domain", b, "application/xml; charset=utf-8", e, "smart quotes and dashes in UTF-8 CDATA")

# ----------------------------------------------------------------------------- Medium


def medium(posts):
    x, exp = "", []
    for pid, slug, title, pub, iso in posts:
        link = f"https://medium.com/@writer/{slug}-{pid}?source=rss-abc123------2"
        x += (f"<item><title><![CDATA[{title}]]></title><link>{link}</link><guid isPermaLink=\"false\">https://medium.com/p/{pid}</guid>"
              f"<category><![CDATA[programming]]></category><category><![CDATA[java]]></category><dc:creator><![CDATA[Writer]]></dc:creator>"
              f"<pubDate>{pub}</pubDate><atom:updated>2026-02-16T10:11:12.345Z</atom:updated>"
              f"<content:encoded><![CDATA[<h3>{title}</h3><p>Text</p><img src=\"https://medium.com/_/stat?event=post.clientViewed&referrerSource=full_rss&postId={pid}\" width=\"1\" height=\"1\" alt=\"\">]]></content:encoded></item>")
        exp.append(it(f"https://medium.com/p/{pid}", link, title.replace("&amp;", "&"), iso))
    return ('<?xml version="1.0" encoding="UTF-8"?><rss xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/" '
            'xmlns:atom="http://www.w3.org/2005/Atom" version="2.0" xmlns:cc="http://cyber.law.harvard.edu/rss/creativeCommonsRssModule.html">'
            '<channel><title><![CDATA[Stories by Writer on Medium]]></title><description><![CDATA[Stories by Writer on Medium]]></description>'
            '<link>https://medium.com/@writer?source=rss-abc123------2</link><image><url>https://cdn-images-1.medium.com/fit/c/150/150/x.png</url>'
            '<title>Stories by Writer on Medium</title><link>https://medium.com/@writer?source=rss-abc123------2</link></image>'
            '<generator>Medium</generator><lastBuildDate>Mon, 16 Feb 2026 10:20:01 GMT</lastBuildDate>'
            '<atom:link href="https://medium.com/@writer/feed" rel="self" type="application/rss+xml"/>'
            '<webMaster><![CDATA[yourfriends@medium.com]]></webMaster><atom:link href="http://medium.superfeedr.com" rel="hub"/>'
            f'{x}</channel></rss>'), exp


b, e = medium([("5f1a2b3c4d5e", "why-we-rewrote", "Why we rewrote it", "Mon, 16 Feb 2026 09:57:56 GMT", "2026-02-16T09:57:56Z"),
               ("0a9b8c7d6e5f", "ten-lessons", "Ten lessons from ten years", "Sat, 07 Feb 2026 16:41:09 GMT", "2026-02-07T16:41:09Z")])
doc("medium-user", b, "text/xml; charset=UTF-8", e, "Medium: CDATA, atom:link rel=hub, tracking pixel")

b, e = medium([("1c2d3e4f5a6b", "a-b", "A/B tests &amp; you", "Thu, 22 Jan 2026 08:00:00 GMT", "2026-01-22T08:00:00Z")])
doc("medium-publication", b, "text/xml; charset=UTF-8", e, "an escaped ampersand inside CDATA stays as written, read as HTML")

# ----------------------------------------------------------------------------- YouTube


def youtube(channel, videos):
    xs, exp = "", []
    for vid, title, pub, iso in videos:
        link = f"https://www.youtube.com/watch?v={vid}"
        xs += (f"<entry>\n  <id>yt:video:{vid}</id>\n  <yt:videoId>{vid}</yt:videoId>\n  <yt:channelId>{channel}</yt:channelId>\n"
               f"  <title>{title}</title>\n  <link rel=\"alternate\" href=\"{link}\"/>\n"
               f"  <author>\n   <name>River Channel</name>\n   <uri>https://www.youtube.com/channel/{channel}</uri>\n  </author>\n"
               f"  <published>{pub}</published>\n  <updated>2026-02-17T01:02:03+00:00</updated>\n"
               f"  <media:group>\n   <media:title>{title}</media:title>\n   <media:content url=\"https://www.youtube.com/v/{vid}?version=3\" type=\"application/x-shockwave-flash\" width=\"640\" height=\"390\"/>\n"
               f"   <media:thumbnail url=\"https://i1.ytimg.com/vi/{vid}/hqdefault.jpg\" width=\"480\" height=\"360\"/>\n"
               f"   <media:description>About the video &amp; links</media:description>\n"
               f"   <media:community>\n    <media:starRating count=\"12\" average=\"5.00\" min=\"1\" max=\"5\"/>\n    <media:statistics views=\"345\"/>\n   </media:community>\n  </media:group>\n </entry>\n")
        exp.append(it(f"yt:video:{vid}", link, title.replace("&amp;", "&"), iso))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom">\n'
            f' <link rel="self" href="http://www.youtube.com/feeds/videos.xml?channel_id={channel}"/>\n <id>yt:channel:{channel[2:]}</id>\n'
            f' <yt:channelId>{channel[2:]}</yt:channelId>\n <title>River Channel</title>\n <link rel="alternate" href="https://www.youtube.com/channel/{channel}"/>\n'
            f' <author>\n  <name>River Channel</name>\n  <uri>https://www.youtube.com/channel/{channel}</uri>\n </author>\n <published>2014-05-01T10:00:00+00:00</published>\n'
            f'{xs}</feed>\n'), exp


b, e = youtube("UCa1b2c3d4e5f6g7h8i9j0kl", [("dQw4w9WgXcA", "Kayaking the gorge", "2026-02-16T09:57:56+00:00", "2026-02-16T09:57:56Z"),
                                            ("a_b-C1d2E3f", "Q&amp;A livestream", "2026-02-10T18:00:01+00:00", "2026-02-10T18:00:01Z")])
doc("youtube-channel", b, "text/xml; charset=UTF-8", e, "YouTube channel feed: yt:, media:group")

b, e = youtube("UCzz9yy8xx7ww6vv5uu4tt3s", [("Zx9_Y8w7V6u", "Shorts #12", "2025-12-31T23:59:59+00:00", "2025-12-31T23:59:59Z")])
doc("youtube-playlist", b, "text/xml; charset=UTF-8", e)

# ----------------------------------------------------------------------------- Mastodon


def mastodon(user, posts, host="mastodon.example"):
    x, exp = "", []
    for sid, pub, iso, text in posts:
        link = f"https://{host}/@{user}/{sid}"
        x += (f"    <item>\n      <guid isPermaLink=\"true\">{link}</guid>\n      <link>{link}</link>\n      <pubDate>{pub}</pubDate>\n"
              f"      <description>&lt;p&gt;{text}&lt;/p&gt;</description>\n"
              f"      <media:content url=\"https://files.{host}/media/{sid}.png\" type=\"image/png\" fileSize=\"123\" medium=\"image\">\n"
              f"        <media:rating scheme=\"urn:simple\">nonadult</media:rating>\n      </media:content>\n"
              f"      <category>fediverse</category>\n    </item>\n")
        exp.append(it(link, link, "-", iso))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:webfeeds="http://webfeeds.org/rss/1.0" xmlns:media="http://search.yahoo.com/mrss/">\n'
            f'  <channel>\n    <title>Someone</title>\n    <description>Public posts from @{user}@{host}</description>\n'
            f'    <link>https://{host}/@{user}</link>\n    <image>\n      <url>https://files.{host}/a.png</url>\n      <title>Someone</title>\n      <link>https://{host}/@{user}</link>\n    </image>\n'
            f'    <lastBuildDate>Mon, 16 Feb 2026 10:00:00 +0000</lastBuildDate>\n    <webfeeds:icon>https://files.{host}/a.png</webfeeds:icon>\n'
            f'    <generator>Mastodon v4.2.7</generator>\n{x}  </channel>\n</rss>\n'), exp


b, e = mastodon("someone", [("111951234567890123", "Mon, 16 Feb 2026 09:57:56 +0000", "2026-02-16T09:57:56Z", "Toot one"),
                            ("111950000000000001", "Sun, 15 Feb 2026 22:01:00 +0000", "2026-02-15T22:01:00Z", "Toot two"),
                            ("111949999999999999", "Sun, 15 Feb 2026 21:59:00 +0000", "2026-02-15T21:59:00Z", "A reply")])
doc("mastodon", b, "application/rss+xml; charset=utf-8", e, "Mastodon: no titles, guid = link")

b, e = mastodon("town", [("112000000000000001", "Tue, 10 Feb 2026 07:00:00 +0000", "2026-02-10T07:00:00Z", "Road closed")], host="social.example.org")
doc("mastodon-tag", b, "application/rss+xml; charset=utf-8", e)

# ----------------------------------------------------------------------------- GitHub


def github_releases(repo, rels):
    xs, exp = "", []
    for tag, upd, iso, title in rels:
        link = f"https://github.com/{repo}/releases/tag/{tag}"
        xs += (f"  <entry>\n    <id>tag:github.com,2008:Repository/123456789/{tag}</id>\n    <updated>{upd}</updated>\n"
               f"    <link rel=\"alternate\" type=\"text/html\" href=\"{link}\"/>\n    <title>{title}</title>\n"
               f"    <content type=\"html\">&lt;h2&gt;Changes&lt;/h2&gt;</content>\n    <author>\n      <name>maintainer</name>\n    </author>\n"
               f"    <media:thumbnail height=\"30\" width=\"30\" url=\"https://avatars.githubusercontent.com/u/1?s=60&amp;v=4\"/>\n  </entry>\n")
        exp.append(it(f"tag:github.com,2008:Repository/123456789/{tag}", link, title, iso))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xml:lang="en-US">\n'
            f'  <id>tag:github.com,2008:https://github.com/{repo}/releases</id>\n  <link type="text/html" rel="alternate" href="https://github.com/{repo}/releases"/>\n'
            f'  <link type="application/atom+xml" rel="self" href="https://github.com/{repo}/releases.atom"/>\n  <title>Release notes from {repo.split("/")[1]}</title>\n'
            f'  <updated>2026-02-16T09:57:56Z</updated>\n{xs}</feed>\n'), exp


b, e = github_releases("river/kayak", [("v2.1.0", "2026-02-16T09:57:56Z", "2026-02-16T09:57:56Z", "v2.1.0"),
                                       ("v2.0.1", "2026-01-20T12:00:00Z", "2026-01-20T12:00:00Z", "v2.0.1: fixes")])
doc("github-releases", b, "application/atom+xml; charset=utf-8", e, "GitHub releases: updated only, no published")

b, e = github_releases("river/tools", [("nightly", "2026-11-24T03:00:00Z", "2026-11-24T03:00:00Z", "Nightly"),
                                       ("v0.9", "2024-07-01T08:00:00Z", "2024-07-01T08:00:00Z", "v0.9")])
doc("github-releases-nightly", b, "application/atom+xml; charset=utf-8", e)

doc("github-commits", """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xml:lang="en-US">
  <id>tag:github.com,2008:/river/kayak/commits/main</id>
  <link type="text/html" rel="alternate" href="https://github.com/river/kayak/commits/main"/>
  <link type="application/atom+xml" rel="self" href="https://github.com/river/kayak/commits/main.atom"/>
  <title>Recent Commits to kayak:main</title>
  <updated>2026-02-16T09:57:56Z</updated>
  <entry>
    <id>tag:github.com,2008:Grit::Commit/0a1b2c3d4e5f60718293a4b5c6d7e8f901234567</id>
    <link type="text/html" rel="alternate" href="https://github.com/river/kayak/commit/0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"/>
    <title>
        Fix paddle &lt;count&gt; overflow
    </title>
    <updated>2026-02-16T09:57:56Z</updated>
    <media:thumbnail height="30" width="30" url="https://avatars.githubusercontent.com/u/1?s=30&amp;v=4"/>
    <author>
      <name>dev</name>
      <uri>https://github.com/dev</uri>
    </author>
    <content type="html">&lt;pre style=&#39;white-space:pre-wrap;width:81ex&#39;&gt;Fix&lt;/pre&gt;</content>
  </entry>
</feed>
""", "application/atom+xml; charset=utf-8",
    [it("tag:github.com,2008:Grit::Commit/0a1b2c3d4e5f60718293a4b5c6d7e8f901234567", "https://github.com/river/kayak/commit/0a1b2c3d4e5f60718293a4b5c6d7e8f901234567", "Fix paddle <count> overflow", "2026-02-16T09:57:56Z")],
    "a text title holding what looks like markup stays text; whitespace around it")

# ----------------------------------------------------------------------------- podcasts

ITUNES = ' xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/"'


def podcast(name, eps, chan_extra="", ctype="application/rss+xml"):
    x, exp = "", []
    for guid, title, pub, iso, link in eps:
        x += (f"<item>\n<title>{title}</title>\n<itunes:title>{title}</itunes:title>\n<description><![CDATA[<p>Notes</p>]]></description>\n"
              + (f"<link>{link}</link>\n" if link else "")
              + f"<guid isPermaLink=\"false\">{guid}</guid>\n<pubDate>{pub}</pubDate>\n"
              f"<enclosure url=\"https://traffic.example/{guid}.mp3?dest-id=1\" length=\"0\" type=\"audio/mpeg\"/>\n"
              f"<itunes:duration>3601</itunes:duration>\n<itunes:explicit>no</itunes:explicit>\n<itunes:episodeType>full</itunes:episodeType>\n"
              f"<itunes:image href=\"https://img.example/{guid}.jpg\"/>\n<podcast:transcript url=\"https://t.example/{guid}.vtt\" type=\"text/vtt\"/>\n</item>\n")
        exp.append(it(guid, link or "-", title, iso))
    body = ('<?xml version="1.0" encoding="UTF-8"?>\n' + rss(
        '<itunes:author>Two Hosts</itunes:author>\n<itunes:owner><itunes:name>Two Hosts</itunes:name><itunes:email>hosts@pod.example</itunes:email></itunes:owner>\n'
        '<itunes:image href="https://img.example/show.jpg"/>\n<itunes:category text="Society &amp; Culture"><itunes:category text="Places &amp; Travel"/></itunes:category>\n'
        '<itunes:type>episodic</itunes:type>\n<podcast:locked>no</podcast:locked>\n' + chan_extra, x, ns=ITUNES, title=name, prolog=""))
    doc(f"podcast-{name.lower().replace(' ', '-')}", body, ctype, exp)


podcast("Libsyn Show", [("a1b2c3d4-e5f6-4789-a012-b3c4d5e6f7a8", "42 - Ferries", "Wed, 11 Feb 2026 10:00:00 +0000", "2026-02-11T10:00:00Z", "https://libsyn.example/42-ferries"),
                        ("9f8e7d6c-5b4a-4321-b0a9-876543210fed", "41 - Tides", "Wed, 04 Feb 2026 10:00:00 +0000", "2026-02-04T10:00:00Z", "https://libsyn.example/41-tides")])
podcast("Anchor Show", [("c0ffee00-0000-4000-8000-000000000001", "Pilot", "Sat, 24 Jan 2026 15:22:31 GMT", "2026-01-24T15:22:31Z", None)])
podcast("Buzzsprout Show", [("Buzzsprout-14600001", "Season 2 trailer", "Mon, 02 Feb 2026 05:00:00 -0500", "2026-02-02T10:00:00Z", "https://www.buzzsprout.example/1/14600001")])
podcast("Transistor Show", [("12ab34cd", "Episode 7", "Fri, 30 Jan 2026 11:00:00 -0800", "2026-01-30T19:00:00Z", "https://share.transistor.example/s/12ab34cd"),
                            ("56ef78ab", "Episode 6", "Fri, 23 Jan 2026 11:00:00 -0800", "2026-01-23T19:00:00Z", "https://share.transistor.example/s/56ef78ab")])
podcast("Old Show", [("oldshow-2005-03", "March show", "Tue, 15 Mar 05 20:00:00 EST", "2005-03-16T01:00:00Z", "http://old.example/2005/03/"),
                     ("oldshow-2004-12", "December show", "Wed, 15 Dec 04 20:00:00 EST", "2004-12-16T01:00:00Z", "http://old.example/2004/12/")])
podcast("Wrong Type Show", [("wts-1", "One", "Thu, 12 Feb 2026 12:00:00 PST", "2026-02-12T20:00:00Z", "https://wts.example/1")], ctype="audio/x-mpegurl")

# ----------------------------------------------------------------------------- Hugo

HUGO_NS = ' xmlns:atom="http://www.w3.org/2005/Atom"'


def hugo(host, pages, base_link=None):
    x, exp = "", []
    for path, title, pub, iso in pages:
        link = f"https://{host}{path}"
        x += (f"    <item>\n      <title>{title}</title>\n      <link>{link}</link>\n      <pubDate>{pub}</pubDate>\n"
              f"      <guid>{link}</guid>\n      <description>&lt;p&gt;Summary&lt;/p&gt;</description>\n    </item>\n")
        exp.append(it(link, link, title, iso))
    return ('<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n  <channel>\n'
            f'    <title>Hugo site</title>\n    <link>https://{host}/</link>\n    <description>Recent content on Hugo site</description>\n'
            '    <generator>Hugo -- gohugo.io</generator>\n    <language>en-us</language>\n    <lastBuildDate>Tue, 17 Feb 2026 17:36:36 -0500</lastBuildDate>\n'
            f'    <atom:link href="https://{host}/index.xml" rel="self" type="application/rss+xml" />\n{x}  </channel>\n</rss>\n'), exp


b, e = hugo("hugo.example", [("/posts/second/", "Second post", "Tue, 17 Feb 2026 17:36:36 -0500", "2026-02-17T22:36:36Z"),
                             ("/posts/first/", "First post", "Mon, 02 Feb 2026 00:00:00 +0000", "2026-02-02T00:00:00Z")])
doc("hugo-blog", b, "application/rss+xml", e, "Hugo's default RSS template")

b, e = hugo("hugo-docs.example", [("/about/", "About", "Mon, 01 Jan 0001 00:00:00 +0000", None),
                                  ("/contact/", "Contact", "Mon, 01 Jan 0001 00:00:00 +0000", None),
                                  ("/posts/launch/", "Launch", "Tue, 10 Feb 2026 09:00:00 +0100", "2026-02-10T08:00:00Z")])
doc("hugo-sentinel-dates", b, "application/rss+xml", e, "pages without a date: Hugo's Mon, 01 Jan 0001 sentinel means no date")

b, e = hugo("hugo-sections.example", [("/tags/", "Tags", "Mon, 01 Jan 0001 00:00:00 +0000", None),
                                      ("/categories/", "Categories", "Mon, 01 Jan 0001 00:00:00 +0000", None)])
doc("hugo-sentinel-only", b, "application/rss+xml", e, "a feed of taxonomy pages only: every date the sentinel")

b, e = hugo("hugo-iso.example", [("/posts/a/", "A", "2026-02-17T17:36:36-0500", "2026-02-17T22:36:36Z"),
                                 ("/posts/b/", "B", "2026-02-16T09:57:56.488907+00:00", "2026-02-16T09:57:56.488907Z")])
doc("hugo-custom-template-iso", b, "application/rss+xml", e, "a theme writing ISO-8601 in pubDate: offset without a colon, microseconds")

b, e = hugo("hugo-papermod.example", [("/posts/hello/", "Hello &amp; welcome", "Sun, 25 Jan 2026 12:00:00 +0000", "2026-01-25T12:00:00Z")])
doc("hugo-papermod", b, "application/rss+xml", [it(e[0][0], e[0][1], "Hello & welcome", e[0][3])])

# relative links: a Hugo site built with baseURL "/"
x = ("    <item>\n      <title>Relative</title>\n      <link>/posts/relative/</link>\n      <pubDate>Sun, 25 Jan 2026 12:00:00 +0000</pubDate>\n"
     "      <guid>/posts/relative/</guid>\n      <description>x</description>\n    </item>\n")
doc("hugo-relative-base", '<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n  <channel>\n'
    '    <title>Rel</title>\n    <link>/</link>\n    <description>d</description>\n' + x + '  </channel>\n</rss>\n', "application/rss+xml",
    [it("/posts/relative/", "{root}/posts/relative/", "Relative", "2026-01-25T12:00:00Z")],
    "baseURL '/': links relative to the feed's URL (the guid is the id as written)")

# ----------------------------------------------------------------------------- Jekyll


def jekyll(site, posts, relative=False):
    xs, exp = "", []
    for path, title, pub, upd, iso in posts:
        href = path if relative else f"{site}{path}"
        pid = path.replace(".html", "") if relative else f"{site}{path.replace('.html', '')}"
        xs += (f'<entry><title type="html">{title}</title><link href="{href}" rel="alternate" type="text/html" title="{title}" />'
               f'<published>{pub}</published><updated>{upd}</updated><id>{pid}</id>'
               f'<content type="html" xml:base="{href}">&lt;p&gt;Text&lt;/p&gt;</content>'
               f'<author><name>Author</name></author><summary type="html">Text</summary></entry>')
        exp.append(it(pid, ("{root}" + path) if relative else href, title.replace("&amp;amp;", "&").replace("&amp;", "&"), iso))
    self_href = "/feed.xml" if relative else f"{site}/feed.xml"
    return ('<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom" >'
            '<generator uri="https://jekyllrb.com/" version="4.3.3">Jekyll</generator>'
            f'<link href="{self_href}" rel="self" type="application/atom+xml" /><link href="{site or "/"}/" rel="alternate" type="text/html" />'
            f'<updated>2026-02-16T10:00:00+00:00</updated><id>{self_href}</id><title type="html">Jekyll site</title>'
            f'<subtitle>Write an awesome description.</subtitle>{xs}</feed>'), exp


b, e = jekyll("https://someone.github.io", [("/jekyll/update/2026/02/16/welcome-to-jekyll.html", "Welcome to Jekyll!", "2026-02-16T09:57:56+00:00", "2026-02-16T09:57:56+00:00", "2026-02-16T09:57:56Z"),
                                            ("/2026/01/05/notes.html", "Notes &amp;amp; links", "2026-01-05T00:00:00-08:00", "2026-01-06T00:00:00-08:00", "2026-01-05T08:00:00Z")])
doc("jekyll-feed", b, "application/xml", e, "jekyll-feed's Atom (as GitHub Pages serves it)")

b, e = jekyll("", [("/2026/02/01/relative.html", "Relative links", "2026-02-01T12:00:00+01:00", "2026-02-01T12:00:00+01:00", "2026-02-01T11:00:00Z")], relative=True)
doc("jekyll-feed-no-site-url", b, "application/xml", e, "jekyll-feed without site.url: relative links and ids")

b, e = jekyll("https://minima.example", [("/2025/12/24/holidays.html", "Holidays", "2025-12-24T18:30:00.123456789+01:00", "2025-12-24T18:30:00+01:00", "2025-12-24T17:30:00.123456789Z")])
doc("jekyll-feed-nanos", b, "application/xml", e, "nine fractional digits")

# Jekyll RSS template (jekyll-rss-feed style)
doc("jekyll-rss-template", """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>Jekyll RSS</title>
    <description>d</description>
    <link>https://jr.example/</link>
    <atom:link href="https://jr.example/feed.xml" rel="self" type="application/rss+xml"/>
    <pubDate>Mon, 16 Feb 2026 10:00:00 +0000</pubDate>
    <lastBuildDate>Mon, 16 Feb 2026 10:00:00 +0000</lastBuildDate>
    <generator>Jekyll v3.9.3</generator>
      <item>
        <title>Template post</title>
        <description>&lt;p&gt;Body&lt;/p&gt;
</description>
        <pubDate>Mon, 16 Feb 2026 00:00:00 +0000</pubDate>
        <link>https://jr.example/2026/02/16/template-post.html</link>
        <guid isPermaLink="true">https://jr.example/2026/02/16/template-post.html</guid>
        
        
      </item>
  </channel>
</rss>
""", "application/rss+xml", [it("https://jr.example/2026/02/16/template-post.html", "https://jr.example/2026/02/16/template-post.html", "Template post", "2026-02-16T00:00:00Z")])

# ----------------------------------------------------------------------------- RDF / RSS 1.0

RDF_HEAD = ('<?xml version="1.0" encoding="{enc}"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"'
            ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:syn="http://purl.org/rss/1.0/modules/syndication/" xmlns:slash="http://purl.org/rss/1.0/modules/slash/"'
            ' xmlns:admin="http://webns.net/mvcb/" xmlns:content="http://purl.org/rss/1.0/modules/content/">\n')


def rdf(host, items, enc="UTF-8"):
    lis = "".join(f'<rdf:li rdf:resource="{u}" />' for u, _, _, _ in items)
    xs = ""
    exp = []
    for u, title, date, iso in items:
        xs += (f'<item rdf:about="{u}">\n<title>{title}</title>\n<link>{u}</link>\n<description>Text</description>\n'
               + (f'<dc:date>{date}</dc:date>\n' if date else "") + '<dc:subject>news</dc:subject>\n<slash:section>articles</slash:section>\n</item>\n')
        exp.append(it(u, u, title.replace("&amp;", "&"), iso))
    return (RDF_HEAD.format(enc=enc) + f'<channel rdf:about="https://{host}/">\n<title>{host}</title>\n<link>https://{host}/</link>\n<description>d</description>\n'
            '<dc:language>en-us</dc:language>\n<syn:updatePeriod>hourly</syn:updatePeriod>\n<syn:updateFrequency>1</syn:updateFrequency>\n'
            f'<items><rdf:Seq>{lis}</rdf:Seq></items>\n</channel>\n{xs}</rdf:RDF>\n'), exp


b, e = rdf("slash.example", [("https://slash.example/story/26/02/16/0957/a", "A story", "2026-02-16T09:57:56+00:00", "2026-02-16T09:57:56Z"),
                             ("https://slash.example/story/26/02/16/0800/b", "B &amp; C", "2026-02-16T08:00:00-05:00", "2026-02-16T13:00:00Z")])
doc("rdf-slash", b, "application/rdf+xml", e, "RSS 1.0 with dc:date, syn:, slash:")

b, e = rdf("lj.example", [("https://lj.example/12345.html", "Diary", "2026-02-14T20:00:00Z", "2026-02-14T20:00:00Z")])
doc("rdf-livejournal", b, "text/xml", e)

b, e = rdf("nodate.example", [("https://nodate.example/1", "Undated", None, None)])
doc("rdf-no-date", b, "application/rdf+xml", e, "RSS 1.0 without any date")

b, e = rdf("compact.example", [("https://compact.example/x", "Compact", "2026-02-16", "2026-02-16T00:00:00Z")])
doc("rdf-date-only", b, "application/rdf+xml", e, "dc:date holding a date only")

# RSS 0.90
doc("rss090", """<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/">
  <channel>
    <title>Ninety</title>
    <link>http://ninety.example/</link>
    <description>RSS 0.90</description>
  </channel>
  <item>
    <title>First of them all</title>
    <link>http://ninety.example/first</link>
  </item>
</rdf:RDF>
""", "text/xml", [it("http://ninety.example/first", "http://ninety.example/first", "First of them all", None)], "RSS 0.90: no id, no date")

# ----------------------------------------------------------------------------- RSS 0.91 / 0.92

NETSCAPE = ('<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN"\n'
            '            "http://my.netscape.com/publish/formats/rss-0.91.dtd">\n')
doc("rss091-netscape-doctype", '<?xml version="1.0" encoding="ISO-8859-1"?>\n' + NETSCAPE + """<rss version="0.91">
<channel>
<title>Old news</title>
<link>http://oldnews.example/</link>
<description>News&nbsp;from before</description>
<language>en-us</language>
<item>
<title>Town fair&nbsp;&mdash; dates</title>
<link>http://oldnews.example/fair.html</link>
<description>The fair is back &copy; 2002</description>
</item>
<item>
<title>Second story</title>
<link>http://oldnews.example/second.html</link>
</item>
</channel>
</rss>
""", "text/xml", [it("http://oldnews.example/fair.html", "http://oldnews.example/fair.html", "Town fair\u00a0\u2014 dates", None),
                  it("http://oldnews.example/second.html", "http://oldnews.example/second.html", "Second story", None)],
    "RSS 0.91 with Netscape's DOCTYPE and the HTML entities it declared")

doc("rss091-userland", """<?xml version="1.0" encoding="ISO-8859-1"?>
<rss version="0.91">
  <channel>
    <title>UserLand 0.91</title>
    <link>http://userland.example/</link>
    <description>d</description>
    <language>en-us</language>
    <pubDate>Thu, 08 Jul 1999 07:00:00 GMT</pubDate>
    <item>
      <title>Caf\u00e9 scripting</title>
      <link>http://userland.example/cafe</link>
      <description>Scripting news</description>
    </item>
  </channel>
</rss>
""".encode("iso-8859-1"), "text/xml", [it("http://userland.example/cafe", "http://userland.example/cafe", "Caf\u00e9 scripting", None)], "ISO-8859-1 declared and true")

doc("rss092", """<?xml version="1.0"?>
<rss version="0.92">
<channel>
<title>Ninety-two</title>
<link>http://ninetytwo.example/</link>
<description>RSS 0.92: items may have no title</description>
<item>
<description>Only a description, with a &lt;a href="http://ninetytwo.example/a"&gt;link&lt;/a&gt;</description>
<enclosure url="http://ninetytwo.example/a.mp3" length="12216320" type="audio/mpeg" />
</item>
<item>
<title>Titled</title>
<link>http://ninetytwo.example/b</link>
<description>b</description>
<category domain="http://www.dmoz.org">Top/News</category>
</item>
</channel>
</rss>
""", "text/xml", [it("~", "-", "-", None), it("http://ninetytwo.example/b", "http://ninetytwo.example/b", "Titled", None)],
    "RSS 0.92: an item with neither title nor link nor guid")

doc("rss093-dates", """<?xml version="1.0"?>
<rss version="0.93">
<channel>
<title>Ninety-three</title>
<link>http://n93.example/</link>
<description>d</description>
<item>
<title>Dated</title>
<link>http://n93.example/a</link>
<pubDate>Mon, 16 Feb 2026 09:57:56 GMT</pubDate>
</item>
</channel>
</rss>
""", "text/xml", [it("http://n93.example/a", "http://n93.example/a", "Dated", "2026-02-16T09:57:56Z")])

# ----------------------------------------------------------------------------- JSON Feed


def jdoc(name, obj, ctype, exp, note="", raw=None):
    body = raw if raw is not None else json.dumps(obj, ensure_ascii=False, indent=2)
    doc(name, body, ctype, exp, note)


jdoc("jsonfeed-1.1", {"version": "https://jsonfeed.org/version/1.1", "title": "JSON site", "home_page_url": "https://json.example/",
                      "feed_url": "https://json.example/feed.json", "language": "en",
                      "authors": [{"name": "Writer", "url": "https://json.example/about"}],
                      "items": [{"id": "https://json.example/2026/02/16/a", "url": "https://json.example/2026/02/16/a", "title": "A",
                                 "content_html": "<p>A</p>", "date_published": "2026-02-16T09:57:56Z", "tags": ["x"]},
                                {"id": "2", "url": "https://json.example/b", "title": "B", "content_text": "B",
                                 "date_published": "2026-02-15T10:00:00+01:00", "date_modified": "2026-02-15T12:00:00+01:00"}]},
     "application/feed+json", [it("https://json.example/2026/02/16/a", "https://json.example/2026/02/16/a", "A", "2026-02-16T09:57:56Z"),
                               it("2", "https://json.example/b", "B", "2026-02-15T09:00:00Z")], "JSON Feed 1.1")

jdoc("jsonfeed-1.0", {"version": "https://jsonfeed.org/version/1", "title": "Old JSON", "home_page_url": "https://j10.example/",
                      "author": {"name": "Writer"},
                      "items": [{"id": "https://j10.example/p/1", "url": "https://j10.example/p/1", "title": "One", "content_html": "<p>1</p>",
                                 "date_published": "2026-02-10T08:00:00.123-08:00", "author": {"name": "Writer"}}]},
     "application/json", [it("https://j10.example/p/1", "https://j10.example/p/1", "One", "2026-02-10T16:00:00.123Z")], "JSON Feed 1.0: author object")

jdoc("jsonfeed-no-ids", {"version": "https://jsonfeed.org/version/1.1", "title": "No ids",
                         "items": [{"url": "https://noid.example/a", "title": "Has url", "content_text": "a", "date_published": "2026-02-12T10:00:00Z"},
                                   {"url": "/b", "title": "Relative url", "content_text": "b", "date_published": "2026-02-11T10:00:00Z"},
                                   {"title": "Nothing but a title", "content_text": "c", "date_published": "2026-02-10T10:00:00Z"}]},
     "application/feed+json", [it("https://noid.example/a", "https://noid.example/a", "Has url", "2026-02-12T10:00:00Z"),
                               it("{root}/b", "{root}/b", "Relative url", "2026-02-11T10:00:00Z"),
                               it("~", "-", "Nothing but a title", "2026-02-10T10:00:00Z")], "items without id: the url, else title and date")

jdoc("jsonfeed-dates", {"version": "https://jsonfeed.org/version/1.1", "title": "Dates",
                        "items": [{"id": "d1", "content_text": "1", "date_published": "2026-02-16T09:57:56.488907+00:00"},
                                  {"id": "d2", "content_text": "2", "date_published": "2026-02-16T09:57:56+0100"},
                                  {"id": "d3", "content_text": "3", "date_published": "2026-02-16"},
                                  {"id": "d4", "content_text": "4", "date_published": "2026-02-16 09:57:56"},
                                  {"id": "d5", "content_text": "5", "date_published": "Mon, 16 Feb 2026 09:57:56 GMT"},
                                  {"id": "d6", "content_text": "6", "date_modified": "2026-02-16T09:57:56Z"},
                                  {"id": "d7", "content_text": "7", "date_published": "0001-01-01T00:00:00Z"},
                                  {"id": "d8", "content_text": "8", "date_published": ""},
                                  {"id": "d9", "content_text": "9", "date_published": "2026-02-16T09:57:56.5Z"}]},
     "application/feed+json", [it("d1", "-", "-", "2026-02-16T09:57:56.488907Z"), it("d2", "-", "-", "2026-02-16T08:57:56Z"),
                               it("d3", "-", "-", "2026-02-16T00:00:00Z"), it("d4", "-", "-", "2026-02-16T09:57:56Z"),
                               it("d5", "-", "-", "2026-02-16T09:57:56Z"), it("d6", "-", "-", "2026-02-16T09:57:56Z"),
                               it("d7", "-", "-", None), it("d8", "-", "-", None), it("d9", "-", "-", "2026-02-16T09:57:56.500Z")],
     "date_published variants; date_modified when it is missing; Go's zero time")

jdoc("jsonfeed-numeric-ids", {"version": "https://jsonfeed.org/version/1", "title": "Numeric",
                              "items": [{"id": 1234, "url": "https://num.example/1234", "title": "Numeric id", "content_text": "x", "date_published": "2026-02-01T00:00:00Z"}]},
     "application/json; charset=utf-8", [it("1234", "https://num.example/1234", "Numeric id", "2026-02-01T00:00:00Z")], "a number where the spec says string")

jdoc("jsonfeed-empty", {"version": "https://jsonfeed.org/version/1.1", "title": "Nothing yet", "items": []}, "application/feed+json", [], "an empty JSON Feed")

jdoc("jsonfeed-bom", None, "application/feed+json", [it("bom-1", "https://bom.example/1", "With a BOM", "2026-02-01T00:00:00Z")], "a BOM before the JSON",
     raw=b"\xef\xbb\xbf" + json.dumps({"version": "https://jsonfeed.org/version/1.1", "title": "BOM", "items": [{"id": "bom-1", "url": "https://bom.example/1", "title": "With a BOM", "content_text": "x", "date_published": "2026-02-01T00:00:00Z"}]}).encode())

jdoc("jsonfeed-text-plain", {"version": "https://jsonfeed.org/version/1.1", "title": "Served as text", "items": [
    {"id": "tp-1", "url": "https://tp.example/1", "title": "Caf\u00e9 &amp; bar", "content_html": "<p>x</p>", "date_published": "2026-02-03T04:05:06-05:00"}]},
     "text/plain; charset=utf-8", [it("tp-1", "https://tp.example/1", "Caf\u00e9 & bar", "2026-02-03T09:05:06Z")], "served as text/plain; an entity in a title read as HTML")

jdoc("jsonfeed-micro-blog", {"version": "https://jsonfeed.org/version/1", "title": "Micro", "home_page_url": "https://micro.example/",
                             "items": [{"id": "http://micro.example/2026/02/16/095756.html", "content_html": "<p>A short post</p>",
                                        "date_published": "2026-02-16T09:57:56+00:00", "url": "https://micro.example/2026/02/16/095756.html"}]},
     "application/json", [it("http://micro.example/2026/02/16/095756.html", "https://micro.example/2026/02/16/095756.html", "-", "2026-02-16T09:57:56Z")], "Micro.blog: no titles")

jdoc("jsonfeed-future", {"version": "https://jsonfeed.org/version/1.1", "title": "Future", "items": [
    {"id": "f1", "title": "Scheduled", "content_text": "x", "date_published": "2031-01-01T00:00:00Z"},
    {"id": "f2", "title": "Tomorrow-ish", "content_text": "x", "date_published": "2026-11-25T06:00:00Z"}]},
     "application/feed+json", [it("f1", "-", "Scheduled", None), it("f2", "-", "Tomorrow-ish", "2026-11-25T06:00:00Z")], "a date years ahead is none; hours ahead is kept")

# ----------------------------------------------------------------------------- dates in RSS


def date_feed(name, dates, note, host="dates.example"):
    x, exp = "", []
    for n, (written, iso) in enumerate(dates):
        link = f"https://{host}/{name}/{n}"
        x += rss_item(title=f"Item {n}", link=link, guid=link, pub=written)
        exp.append(it(link, link, f"Item {n}", iso))
    doc(name, rss("", x), "application/rss+xml", exp, note)


date_feed("dates-fractions", [("2026-02-16T09:57:56.4Z", "2026-02-16T09:57:56.400Z"), ("2026-02-16T09:57:56.48Z", "2026-02-16T09:57:56.480Z"),
                              ("2026-02-16T09:57:56.488Z", "2026-02-16T09:57:56.488Z"), ("2026-02-16T09:57:56.4889Z", "2026-02-16T09:57:56.488900Z"),
                              ("2026-02-16T09:57:56.48890Z", "2026-02-16T09:57:56.488900Z"), ("2026-02-16T09:57:56.488907+00:00", "2026-02-16T09:57:56.488907Z"),
                              ("2026-02-16T09:57:56.4889071Z", "2026-02-16T09:57:56.488907100Z"), ("2026-02-16T09:57:56.48890712Z", "2026-02-16T09:57:56.488907120Z"),
                              ("2026-02-16T09:57:56.488907123-05:00", "2026-02-16T14:57:56.488907123Z")], "fractional seconds of 1 to 9 digits")
date_feed("dates-offsets-without-colon", [("2026-02-17T17:36:36-0500", "2026-02-17T22:36:36Z"), ("2026-02-17T17:36:36+0530", "2026-02-17T12:06:36Z"),
                                          ("2026-02-17T17:36:36+01", "2026-02-17T16:36:36Z"), ("2026-02-17 17:36:36 +0000", "2026-02-17T17:36:36Z")],
          "ISO-8601 in pubDate, offsets without a colon or minutes")
date_feed("dates-date-only", [("2026-02-17", "2026-02-17T00:00:00Z"), ("2026-2-7", "2026-02-07T00:00:00Z"), ("17 Feb 2026", "2026-02-17T00:00:00Z")], "a date and no time")
date_feed("dates-rfc822-two-digit-years", [("Tue, 17 Feb 26 17:36:36 EST", "2026-02-17T22:36:36Z"), ("Sun, 17 Feb 02 17:36:36 PDT", "2002-02-18T00:36:36Z"),
                                           ("Fri, 17 Feb 95 17:36:36 GMT", "1995-02-17T17:36:36Z")], "RFC 822's two-digit years")
date_feed("dates-named-zones", [("Tue, 17 Feb 2026 17:36:36 EST", "2026-02-17T22:36:36Z"), ("Tue, 17 Feb 2026 17:36:36 PDT", "2026-02-18T00:36:36Z"),
                                ("Tue, 17 Feb 2026 17:36:36 GMT", "2026-02-17T17:36:36Z"), ("Tue, 17 Feb 2026 17:36:36 UT", "2026-02-17T17:36:36Z"),
                                ("Tue, 17 Feb 2026 17:36:36 Z", "2026-02-17T17:36:36Z"), ("Tue, 17 Feb 2026 17:36:36 CET", "2026-02-17T16:36:36Z"),
                                ("Tue, 17 Feb 2026 17:36:36 UTC", "2026-02-17T17:36:36Z"), ("Tue, 17 Feb 2026 17:36:36 CDT", "2026-02-17T22:36:36Z")], "named zones")
date_feed("dates-day-name-mismatch", [("Wed, 17 Feb 2026 17:36:36 +0000", "2026-02-17T17:36:36Z"), ("Mon, 30 Jan 2026 08:00:00 +0000", "2026-01-30T08:00:00Z")],
          "a weekday that is not the date's")
date_feed("dates-no-day-name", [("17 Feb 2026 17:36:36 +0000", "2026-02-17T17:36:36Z"), ("7 Feb 2026 07:06:05 GMT", "2026-02-07T07:06:05Z")], "no weekday")
date_feed("dates-lowercase", [("tue, 17 feb 2026 17:36:36 +0000", "2026-02-17T17:36:36Z"), ("TUE, 17 FEB 2026 17:36:36 GMT", "2026-02-17T17:36:36Z"),
                              ("Tue, 17 February 2026 17:36:36 +0000", "2026-02-17T17:36:36Z"), ("Tue, 17 Sept 2026 17:36:36 +0000", "2026-09-17T17:36:36Z")],
          "lowercase and uppercase months, a full month name, Sept")
date_feed("dates-implausible", [("Thu, 01 Jan 1970 00:00:00 +0000", None), ("Fri, 31 Dec 9999 23:59:59 GMT", None), ("Mon, 01 Jan 0001 00:00:00 +0000", None),
                                ("0000-00-00 00:00:00", None), ("Sat, 31 Dec 1988 12:00:00 GMT", None), ("Tue, 17 Feb 2026 17:36:36 +0000", "2026-02-17T17:36:36Z"),
                                ("Sun, 01 Jan 2040 00:00:00 +0000", None)], "before 1990 or far ahead: no date")
date_feed("dates-broken", [("Tue Feb 17 17:36:36 UTC 2026", "2026-02-17T17:36:36Z"), ("Tue, 17 Feb 2026 17:36:36 +0000 (UTC)", "2026-02-17T17:36:36Z"),
                           ("Tue, 17 Feb 2026 17:36 +0000", "2026-02-17T17:36:00Z"), ("February 17, 2026", "2026-02-17T00:00:00Z"),
                           ("not a date", None), ("", None), ("Tue, 17 Feb 2026 17:36:36", "2026-02-17T17:36:36Z"), ("20260217T173636Z", "2026-02-17T17:36:36Z")],
          "Date.toString(), a comment after the zone, no seconds, prose, no zone, the basic form")
date_feed("dates-whitespace", [("\n      Tue, 17 Feb 2026 17:36:36 +0000\n    ", "2026-02-17T17:36:36Z"), ("  2026-02-17T17:36:36Z  ", "2026-02-17T17:36:36Z")], "whitespace around dates")
date_feed("dates-midnight-24", [("2026-02-17T24:00:00Z", "2026-02-18T00:00:00Z"), ("Tue, 17 Feb 2026 23:59:60 +0000", "2026-02-17T23:59:59Z")], "hour 24 and a leap second")


def atom_dates(name, dates, note):
    xs, exp = "", []
    for n, (pub, upd, iso) in enumerate(dates):
        link = f"https://atomdates.example/{name}/{n}"
        xs += atom_entry(f"urn:{name}:{n}", link, f"Entry {n}", published=pub, updated=upd)
        exp.append(it(f"urn:{name}:{n}", link, f"Entry {n}", iso))
    doc(name, atom("", xs, title=name), "application/atom+xml", exp, note)


atom_dates("atom-dates-updated-only", [(None, "2026-02-16T09:57:56Z", "2026-02-16T09:57:56Z"), (None, "2023-11-15", "2023-11-15T00:00:00Z")],
           "published falls back to updated; updated holding only a date")
atom_dates("atom-dates-published-wins", [("2026-02-01T10:00:00Z", "2026-02-16T09:57:56Z", "2026-02-01T10:00:00Z")], "published before updated")
atom_dates("atom-dates-fractions", [("2026-02-10T09:00:00.123456789Z", None, "2026-02-10T09:00:00.123456789Z"), ("2026-02-10T09:00:00.1+02:00", None, "2026-02-10T07:00:00.100Z"),
                                    ("2026-02-10T09:00:00.123456-0800", None, "2026-02-10T17:00:00.123456Z")], "fractions in Atom")
atom_dates("atom-dates-rfc822", [("Tue, 17 Feb 2026 17:36:36 +0000", None, "2026-02-17T17:36:36Z"), (None, "Tue, 17 Feb 2026 17:36:36 EST", "2026-02-17T22:36:36Z")],
           "RFC 822 where Atom says RFC 3339")
atom_dates("atom-dates-sentinel", [("0001-01-01T00:00:00Z", "2026-02-16T09:57:56Z", "2026-02-16T09:57:56Z"), ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z", None)],
           "a zero published falls back to a real updated")
atom_dates("atom-dates-lowercase-t-z", [("2026-02-16t09:57:56z", None, "2026-02-16T09:57:56Z"), ("2026-02-16 09:57:56Z", None, "2026-02-16T09:57:56Z")], "lowercase t and z, a space")
atom_dates("atom-dates-none", [(None, None, None)], "an entry without dates")

# RSS with other date elements
x = ('<item><title>DC only</title><link>https://dc.example/1</link><guid>https://dc.example/1</guid><dc:date>2026-02-16T09:57:56+01:00</dc:date></item>\n'
     '<item><title>atom:updated only</title><link>https://dc.example/2</link><guid>https://dc.example/2</guid><atom:updated>2026-02-15T09:57:56Z</atom:updated></item>\n'
     '<item><title>pubDate and dc:date</title><link>https://dc.example/3</link><guid>https://dc.example/3</guid><pubDate>Sat, 14 Feb 2026 10:00:00 GMT</pubDate><dc:date>2026-02-13T10:00:00Z</dc:date></item>\n'
     '<item><title>empty pubDate, dc:date</title><link>https://dc.example/4</link><guid>https://dc.example/4</guid><pubDate></pubDate><dc:date>2026-02-12T10:00:00Z</dc:date></item>\n'
     '<item><title>sentinel pubDate, dc:date</title><link>https://dc.example/5</link><guid>https://dc.example/5</guid><pubDate>Mon, 01 Jan 0001 00:00:00 +0000</pubDate><dc:date>2026-02-11T10:00:00Z</dc:date></item>\n')
doc("rss-date-elements", rss("", x, ns=' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom"'), "application/rss+xml",
    [it("https://dc.example/1", "https://dc.example/1", "DC only", "2026-02-16T08:57:56Z"),
     it("https://dc.example/2", "https://dc.example/2", "atom:updated only", "2026-02-15T09:57:56Z"),
     it("https://dc.example/3", "https://dc.example/3", "pubDate and dc:date", "2026-02-14T10:00:00Z"),
     it("https://dc.example/4", "https://dc.example/4", "empty pubDate, dc:date", "2026-02-12T10:00:00Z"),
     it("https://dc.example/5", "https://dc.example/5", "sentinel pubDate, dc:date", "2026-02-11T10:00:00Z")], "dc:date, atom:updated, the first date that is one")

# ----------------------------------------------------------------------------- XML quirks


def simple_items(host, n=2, date="Tue, 17 Feb 2026 17:36:36 +0000", iso="2026-02-17T17:36:36Z", titles=None):
    x, exp = "", []
    for i in range(n):
        link = f"https://{host}/{i}"
        title, plain = titles[i] if titles else (f"Post {i}", f"Post {i}")
        x += rss_item(title=title, link=link, guid=link, pub=date)
        exp.append(it(link, link, plain, iso))
    return x, exp


x, e = simple_items("ent.example", titles=[("Fish&nbsp;&amp;&nbsp;chips&hellip;", "Fish\u00a0&\u00a0chips\u2026"), ("Times&colon; &ldquo;new&rdquo; &mdash; &euro;5", "Times: \u201cnew\u201d \u2014 \u20ac5")])
doc("entities-html-named", rss("", x), "application/rss+xml", e, "HTML named entities XML does not declare")
x, e = simple_items("ent2.example", titles=[("AT&T and R&D", "AT&T and R&D"), ("Tom &amp Jerry", "Tom & Jerry")])
doc("entities-bare-ampersands", rss("", x), "application/rss+xml", e, "bare ampersands; &amp without its semicolon reads as HTML does")
x, e = simple_items("ent3.example", titles=[("&#8220;Numeric&#8221; &#x2014; refs", "\u201cNumeric\u201d \u2014 refs"), ("Caf&eacute; &Uuml;ber", "Caf\u00e9 \u00dcber")])
doc("entities-numeric-and-latin", rss("", x), "application/rss+xml", e)
x, e = simple_items("ent4.example", titles=[("&nbsp;Leading space", "Leading space"), ("Unknown &zzzz; entity", "Unknown &zzzz; entity")])
doc("entities-unknown", rss("", x), "application/rss+xml", e, "an entity nobody defines stays text")
x, e = simple_items("ent5.example", titles=[("Plain", "Plain"), ("Plain too", "Plain")])
e[1] = it(e[1][0], e[1][1], "Plain too", e[1][3])
doc("entities-in-cdata-and-attributes", rss("", x.replace("<description>A post.</description>", "<description><![CDATA[Keep &nbsp; as HTML]]></description>", 1)
                                               .replace("https://ent5.example/1</link>", "https://ent5.example/1?a=1&b=2</link>")),
    "application/rss+xml", [e[0], it(e[1][0], "https://ent5.example/1?a=1&b=2", "Plain too", e[1][3])], "entities inside CDATA untouched; a bare & in a link")

x, e = simple_items("ctl.example", titles=[("Start\x02of text", "Startof text"), ("Esc\x1b[0m codes\x0b", "Esc[0m codes")])
doc("control-characters", rss("", x), "application/rss+xml", e, "control characters XML forbids")
x, e = simple_items("ctl2.example", titles=[("Form\x0cfeed", "Formfeed"), ("Nul\x00byte", "Nulbyte")])
doc("control-characters-ff-nul", rss("", x), "application/rss+xml", e, "form feed and NUL")
x, e = simple_items("ctl3.example", titles=[("Ctl in CDATA", "Ctl in CDATA"), ("Fine", "Fine")])
doc("control-characters-in-cdata", rss("", x.replace("<description>A post.</description>", "<description><![CDATA[bad\x08char]]></description>", 1)), "application/rss+xml", e)

x, e = simple_items("bom.example")
doc("bom-utf8", b"\xef\xbb\xbf" + rss("", x).encode(), "application/rss+xml", e, "UTF-8 BOM")
doc("bom-then-whitespace", b"\xef\xbb\xbf\r\n\r\n" + rss("", x).encode(), "application/rss+xml", e, "a BOM and blank lines before the prolog")
doc("bom-utf16le", b"\xff\xfe" + rss("", x, prolog='<?xml version="1.0" encoding="UTF-16"?>\n').encode("utf-16-le"), "application/rss+xml", e, "UTF-16 LE with BOM")
doc("whitespace-before-prolog", "   \n\t\n" + rss("", x), "application/rss+xml", e)
doc("junk-before-prolog", "Warning: session_start(): headers already sent\n" + rss("", x), "application/rss+xml", e, "text before the prolog")
doc("comment-before-prolog", "<!-- cached 2026-02-17 -->\n" + rss("", x), "application/rss+xml", e, "a comment before the XML declaration")
doc("no-prolog", rss("", x, prolog=""), "application/rss+xml", e, "no XML declaration at all")
doc("after-root-html", rss("", x) + "<html><body>Hosted by Example</body></html>\n", "application/rss+xml", e, "an HTML footer after </rss>")
doc("after-root-second-document", rss("", x) + rss("", x), "application/rss+xml", e, "the document written twice (a cache concatenating)")
doc("after-root-text", rss("", x) + "0.0213s\n", "application/rss+xml", e, "a timing after </rss>")
doc("after-root-comment", rss("", x) + "<!-- Dynamic page generated in 0.203 seconds. -->\n<!-- Cached page generated by WP-Super-Cache on 2026-02-17 -->\n", "application/rss+xml", e, "comments after the root are well-formed")

x, e = simple_items("dt.example")
doc("doctype-html-entities-dtd", '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE rss [\n<!ENTITY nbsp "&#160;">\n<!ENTITY copy "&#169;">\n]>\n' + rss("", x, prolog="").replace("Post 0", "Post&nbsp;0&copy;"),
    "application/rss+xml", [it(e[0][0], e[0][1], "Post\u00a00\u00a9", e[0][3]), e[1]], "an internal subset declaring HTML entities (read as the HTML ones, never expanded as declared)")
doc("doctype-rss-public", '<?xml version="1.0"?>\n<!DOCTYPE rss SYSTEM "http://dt.example/rss.dtd">\n' + rss("", x, prolog=""), "application/rss+xml", e, "a SYSTEM DOCTYPE never fetched")

# encodings
cp = "Caf\u00e9 \u2013 cr\u00e8me br\u00fbl\u00e9e \u201cspecial\u201d"
x, e = simple_items("enc.example", n=1, titles=[(cp, cp)])
doc("encoding-cp1252-declared-utf8", rss("", x).encode("cp1252"), "application/rss+xml", e, "windows-1252 bytes declared UTF-8")
doc("encoding-cp1252-declared-utf8-header", rss("", x, prolog='<?xml version="1.0"?>\n').encode("cp1252"), "application/rss+xml; charset=utf-8", e, "windows-1252 bytes, UTF-8 in the header only")
doc("encoding-cp1252-declared-latin1", rss("", x, prolog='<?xml version="1.0" encoding="ISO-8859-1"?>\n').encode("cp1252"), "application/rss+xml", e,
    "ISO-8859-1 declared, windows-1252 written (smart quotes and dashes in 0x80-0x9F), as browsers read it")
lat = "Caf\u00e9 cr\u00e8me br\u00fbl\u00e9e \u00e0 la fran\u00e7aise"
x, e = simple_items("lat.example", n=1, titles=[(lat, lat)])
doc("encoding-latin1-declared", rss("", x, prolog='<?xml version="1.0" encoding="ISO-8859-1"?>\n').encode("latin-1"), "application/rss+xml", e, "ISO-8859-1 declared and true")
doc("encoding-latin1-header-only", rss("", x, prolog='<?xml version="1.0"?>\n').encode("latin-1"), "text/xml; charset=ISO-8859-1", e, "ISO-8859-1 in the header only")
doc("encoding-utf8-header-latin1", rss("", x).encode("utf-8"), "text/xml; charset=ISO-8859-1", e, "UTF-8 declared, the header says ISO-8859-1: the document wins")
doc("encoding-utf8-declared-latin1", rss("", x, prolog='<?xml version="1.0" encoding="ISO-8859-1"?>\n').encode("utf-8"), "application/rss+xml", e,
    "UTF-8 bytes declared ISO-8859-1 (a template copied with its declaration)")
doc("encoding-windows1252-declared", rss("", simple_items("w.example", n=1, titles=[(cp, cp)])[0], prolog='<?xml version="1.0" encoding="windows-1252"?>\n').encode("cp1252"),
    "application/rss+xml", simple_items("w.example", n=1, titles=[(cp, cp)])[1], "windows-1252 declared and true")
doc("encoding-mixed-utf8-cp1252", (rss("", simple_items("mix.example", n=2, titles=[("Caf\u00e9", "Caf\u00e9"), ("XX", "XX")])[0]).replace("XX", "\x00MARK\x00")).encode("utf-8").replace(b"\x00MARK\x00", "Cr\u00e8me".encode("cp1252")),
    "application/rss+xml", simple_items("mix.example", n=2, titles=[("Caf\u00e9", "Caf\u00e9"), ("Cr\u00e8me", "Cr\u00e8me")])[1], "UTF-8 with one windows-1252 byte pasted in")
doc("encoding-gb2312", rss("", simple_items("cn.example", n=1, titles=[("\u65b0\u95fb", "\u65b0\u95fb")])[0], prolog='<?xml version="1.0" encoding="gb2312"?>\n').encode("gb2312"),
    "application/rss+xml", simple_items("cn.example", n=1, titles=[("\u65b0\u95fb", "\u65b0\u95fb")])[1], "a legacy CJK charset declared")
doc("encoding-koi8r-header", rss("", simple_items("ru.example", n=1, titles=[("\u041d\u043e\u0432\u043e\u0441\u0442\u0438", "\u041d\u043e\u0432\u043e\u0441\u0442\u0438")])[0], prolog='<?xml version="1.0"?>\n').encode("koi8-r"),
    "text/xml; charset=koi8-r", simple_items("ru.example", n=1, titles=[("\u041d\u043e\u0432\u043e\u0441\u0442\u0438", "\u041d\u043e\u0432\u043e\u0441\u0442\u0438")])[1], "the header names the charset")

# links
doc("links-xml-base-atom", """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://base.example/blog/">
  <title>Based</title>
  <id>https://base.example/blog/</id>
  <updated>2026-02-16T09:57:56Z</updated>
  <link rel="self" href="atom.xml"/>
  <entry>
    <id>https://base.example/blog/one</id>
    <title>One</title>
    <link href="one.html"/>
    <updated>2026-02-16T09:57:56Z</updated>
  </entry>
  <entry xml:base="https://other.example/posts/">
    <id>https://other.example/posts/two</id>
    <title>Two</title>
    <link rel="alternate" href="two.html"/>
    <updated>2026-02-15T09:57:56Z</updated>
  </entry>
  <entry>
    <id>https://base.example/root</id>
    <title>Root-relative</title>
    <link href="/root.html"/>
    <updated>2026-02-14T09:57:56Z</updated>
  </entry>
</feed>
""", "application/atom+xml", [it("https://base.example/blog/one", "https://base.example/blog/one.html", "One", "2026-02-16T09:57:56Z"),
                              it("https://other.example/posts/two", "https://other.example/posts/two.html", "Two", "2026-02-15T09:57:56Z"),
                              it("https://base.example/root", "https://base.example/root.html", "Root-relative", "2026-02-14T09:57:56Z")],
    "relative links against xml:base on the feed and on an entry")
doc("links-relative-atom-no-base", atom("", atom_entry("urn:rel:1", "/posts/1", "Rel 1", updated="2026-02-16T09:57:56Z") +
                                        atom_entry("urn:rel:2", "posts/2", "Rel 2", updated="2026-02-16T09:57:56Z"), title="rel"),
    "application/atom+xml", [it("urn:rel:1", "{root}/posts/1", "Rel 1", "2026-02-16T09:57:56Z"), it("urn:rel:2", "{root}/corpus/posts/2", "Rel 2", "2026-02-16T09:57:56Z")],
    "relative links without xml:base: against the feed's URL")
doc("links-relative-rss", rss("", rss_item(title="R1", link="/a/1", pub="Tue, 17 Feb 2026 17:36:36 +0000") + rss_item(title="R2", link="b/2", guid="rel-guid-2", pub="Tue, 17 Feb 2026 17:36:36 +0000")),
    "application/rss+xml", [it("{root}/a/1", "{root}/a/1", "R1", "2026-02-17T17:36:36Z"), it("rel-guid-2", "{root}/corpus/b/2", "R2", "2026-02-17T17:36:36Z")],
    "relative RSS links: against the feed's URL; an item without guid is known by its absolute link")
doc("links-atom-multiple", """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Links</title><id>urn:links</id><updated>2026-02-16T09:57:56Z</updated>
  <entry>
    <id>urn:links:1</id>
    <title>Enclosure first</title>
    <link rel="enclosure" type="audio/mpeg" length="1" href="https://links.example/1.mp3"/>
    <link rel="replies" href="https://links.example/1#comments"/>
    <link rel="alternate" type="text/html" href="https://links.example/1"/>
    <updated>2026-02-16T09:57:56Z</updated>
  </entry>
  <entry>
    <id>urn:links:2</id>
    <title>No rel</title>
    <link href="https://links.example/2"/>
    <updated>2026-02-16T09:57:56Z</updated>
  </entry>
</feed>
""", "application/atom+xml", [it("urn:links:1", "https://links.example/1", "Enclosure first", "2026-02-16T09:57:56Z"),
                              it("urn:links:2", "https://links.example/2", "No rel", "2026-02-16T09:57:56Z")], "the alternate link among others; a link without rel")
doc("links-guid-permalink", rss("", rss_item(title="Guid only", guid="https://perma.example/p/1", permalink="true", pub="Tue, 17 Feb 2026 17:36:36 +0000") +
                                rss_item(title="Guid no permalink", guid="perma-2", permalink="false", pub="Tue, 17 Feb 2026 17:36:36 +0000")),
    "application/rss+xml", [it("https://perma.example/p/1", "https://perma.example/p/1", "Guid only", "2026-02-17T17:36:36Z"),
                            it("perma-2", "-", "Guid no permalink", "2026-02-17T17:36:36Z")], "a permalink guid is the link; a non-permalink one is not")
doc("links-whitespace", rss("", rss_item(title="Spaced", link="\n    https://space.example/1\n  ", guid="\n  space-1\n", pub="Tue, 17 Feb 2026 17:36:36 +0000")),
    "application/rss+xml", [it("space-1", "https://space.example/1", "Spaced", "2026-02-17T17:36:36Z")], "whitespace around links and guids")

# ids
doc("guids-duplicate", rss("", rss_item(title="First", link="https://dup.example/1", guid="same", pub="Tue, 17 Feb 2026 17:36:36 +0000") +
                           rss_item(title="Second", link="https://dup.example/2", guid="same", pub="Mon, 16 Feb 2026 17:36:36 +0000") +
                           rss_item(title="Other", link="https://dup.example/3", guid="other", pub="Sun, 15 Feb 2026 17:36:36 +0000")),
    "application/rss+xml", [it("same", "https://dup.example/1", "First", "2026-02-17T17:36:36Z"), it("other", "https://dup.example/3", "Other", "2026-02-15T17:36:36Z")],
    "a duplicate guid: the first stands")
doc("guids-duplicate-links", rss("", rss_item(title="A", link="https://duplink.example/x", pub="Tue, 17 Feb 2026 17:36:36 +0000") +
                                 rss_item(title="B", link="https://duplink.example/x", pub="Mon, 16 Feb 2026 17:36:36 +0000")),
    "application/rss+xml", [it("https://duplink.example/x", "https://duplink.example/x", "A", "2026-02-17T17:36:36Z")], "no guids and one link twice")
doc("items-without-guid-or-link", rss("", rss_item(title="Notice one", pub="Tue, 17 Feb 2026 17:36:36 +0000") +
                                      rss_item(title="Notice two", pub="Mon, 16 Feb 2026 17:36:36 +0000") + rss_item(title="Undated notice")),
    "application/rss+xml", [it("~", "-", "Notice one", "2026-02-17T17:36:36Z"), it("~", "-", "Notice two", "2026-02-16T17:36:36Z"), it("~", "-", "Undated notice", None)],
    "items known only by title and date")
doc("atom-entry-without-id", atom("", "<entry><title>No id</title><link href=\"https://noid.example/1\"/><updated>2026-02-16T09:57:56Z</updated></entry>\n", title="noid"),
    "application/atom+xml", [it("https://noid.example/1", "https://noid.example/1", "No id", "2026-02-16T09:57:56Z")], "an Atom entry without id: its link")
doc("guid-empty", rss("", rss_item(title="Empty guid", link="https://eg.example/1", guid="", pub="Tue, 17 Feb 2026 17:36:36 +0000")),
    "application/rss+xml", [it("https://eg.example/1", "https://eg.example/1", "Empty guid", "2026-02-17T17:36:36Z")], "an empty guid is no id")

# empty
doc("empty-rss", rss("<lastBuildDate>Tue, 17 Feb 2026 17:36:36 +0000</lastBuildDate>\n", ""), "application/rss+xml", [], "a channel without items")
doc("empty-atom", atom("", "", title="empty"), "application/atom+xml", [], "a feed without entries")
doc("empty-rdf", rdf("emptyrdf.example", [])[0], "application/rdf+xml", [], "RSS 1.0 without items")

# huge single item
big = "<p>" + ("Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 20 + "</p>\n<p>") * 450 + "</p>"
doc("huge-single-item", rss("", rss_item(title="A very long post " + "x" * 2000, link="https://huge.example/1", guid="https://huge.example/1",
                                         pub="Tue, 17 Feb 2026 17:36:36 +0000", desc=None, extra=f"<content:encoded><![CDATA[{big}]]></content:encoded>\n"),
                            ns=' xmlns:content="http://purl.org/rss/1.0/modules/content/"'),
    "application/rss+xml", [it("https://huge.example/1", "https://huge.example/1", "A very long post " + "x" * 2000, "2026-02-17T17:36:36Z")], "one item of ~0.5 MB")
long_guid = "https://longguid.example/" + "a" * 600
doc("long-guid", rss("", rss_item(title="Long guid", link="https://longguid.example/1", guid=long_guid, pub="Tue, 17 Feb 2026 17:36:36 +0000")),
    "application/rss+xml", [it("sha256:" + __import__("hashlib").sha256(long_guid.encode()).hexdigest(), "https://longguid.example/1", "Long guid", "2026-02-17T17:36:36Z")],
    "a guid longer than an id may be: its hash")

# hostile
doc("xxe-file", """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<rss version="2.0"><channel><title>x</title><link>https://xxe.example/</link><description>d</description>
<item><title>&xxe;</title><link>https://xxe.example/1</link><guid>xxe-1</guid></item>
</channel></rss>
""", "application/rss+xml", [it("xxe-1", "https://xxe.example/1", "&xxe;", None)], "an external entity: never resolved")
doc("xxe-parameter-entity", """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE rss [<!ENTITY % remote SYSTEM "http://127.0.0.1:1/evil.dtd"> %remote;]>
<rss version="2.0"><channel><title>x</title><link>https://xxe2.example/</link><description>d</description>
<item><title>Parameter entity</title><link>https://xxe2.example/1</link><guid>xxe-2</guid></item>
</channel></rss>
""", "application/rss+xml", [it("xxe-2", "https://xxe2.example/1", "Parameter entity", None)], "an external parameter entity: never fetched")
lol = '<!ENTITY lol "lol">' + "".join(f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">' for i in range(1, 10))
doc("billion-laughs", f"""<?xml version="1.0"?>
<!DOCTYPE rss [{lol}]>
<rss version="2.0"><channel><title>lol</title><link>https://lol.example/</link><description>d</description>
<item><title>&lol9;</title><link>https://lol.example/1</link><guid>lol-1</guid></item>
</channel></rss>
""", "application/rss+xml", [it("lol-1", "https://lol.example/1", "&lol9;", None)], "nested entities: never expanded")
doc("xxe-atom", """<?xml version="1.0"?>
<!DOCTYPE feed [<!ENTITY secret SYSTEM "file:///etc/hostname">]>
<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title><id>urn:x</id><updated>2026-02-16T09:57:56Z</updated>
<entry><id>urn:xxe:atom</id><title>Atom &secret;</title><link href="https://xxeatom.example/1"/><updated>2026-02-16T09:57:56Z</updated></entry></feed>
""", "application/atom+xml", [it("urn:xxe:atom", "https://xxeatom.example/1", "Atom &secret;", "2026-02-16T09:57:56Z")], "XXE in Atom")

# misc real-world shapes
doc("rss-served-as-html", rss("", simple_items("html.example", n=1)[0]), "text/html; charset=UTF-8", simple_items("html.example", n=1)[1], "a feed served as text/html")
doc("rss-octet-stream", rss("", simple_items("oct.example", n=1)[0]), "application/octet-stream", simple_items("oct.example", n=1)[1], "a feed served as octet-stream")
doc("rss-no-content-type", rss("", simple_items("noct.example", n=1)[0]), "", simple_items("noct.example", n=1)[1], "no Content-Type at all")
doc("rss-uppercase-elements-ok", rss("", rss_item(title="<![CDATA[<b>Bold</b> title]]>", link="https://cd.example/1", guid="cd-1", pub="Tue, 17 Feb 2026 17:36:36 +0000")),
    "application/rss+xml", [it("cd-1", "https://cd.example/1", "Bold title", "2026-02-17T17:36:36Z")], "HTML in a CDATA title reduced to text")
doc("rss-html-title-escaped", rss("", rss_item(title="&lt;em&gt;Emphasis&lt;/em&gt; &amp;amp; more", link="https://esc.example/1", guid="esc-1", pub="Tue, 17 Feb 2026 17:36:36 +0000")),
    "application/rss+xml", [it("esc-1", "https://esc.example/1", "Emphasis & more", "2026-02-17T17:36:36Z")], "escaped HTML in a title, read as HTML")
doc("atom-xhtml-title", """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title><id>urn:xh</id><updated>2026-02-16T09:57:56Z</updated>
<entry><id>urn:xh:1</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">An <b>XHTML</b> title</div></title>
<link href="https://xh.example/1"/><updated>2026-02-16T09:57:56Z</updated><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Body</p></div></content></entry></feed>
""", "application/atom+xml", [it("urn:xh:1", "https://xh.example/1", "An XHTML title", "2026-02-16T09:57:56Z")], "an XHTML title")
doc("atom-prefixed", """<?xml version="1.0" encoding="utf-8"?>
<a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:title>Prefixed</a:title><a:id>urn:pf</a:id><a:updated>2026-02-16T09:57:56Z</a:updated>
<a:entry><a:id>urn:pf:1</a:id><a:title>Prefixed entry</a:title><a:link href="https://pf.example/1"/><a:published>2026-02-16T09:57:56Z</a:published></a:entry></a:feed>
""", "application/atom+xml", [it("urn:pf:1", "https://pf.example/1", "Prefixed entry", "2026-02-16T09:57:56Z")], "Atom with a namespace prefix")
doc("rss-atom-namespace-mixed", rss('<atom:link href="https://mix.example/feed" rel="self" type="application/rss+xml"/>\n',
                                    rss_item(title="Mixed", link="https://mix.example/1", guid="mix-1", pub="Tue, 17 Feb 2026 17:36:36 +0000",
                                             extra='<atom:link rel="alternate" href="https://mix.example/alt"/>\n<media:thumbnail url="https://mix.example/t.jpg"/>\n'),
                                    ns=' xmlns:atom="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"'),
    "application/rss+xml", [it("mix-1", "https://mix.example/1", "Mixed", "2026-02-17T17:36:36Z")])
doc("rss-many-items", rss("", "".join(rss_item(title=f"N{i}", link=f"https://many.example/{i}", guid=f"many-{i}", pub=f"Tue, {10 + i % 9:02d} Feb 2026 10:{i % 60:02d}:00 +0000") for i in range(120))),
    "application/rss+xml", [it(f"many-{i}", f"https://many.example/{i}", f"N{i}", f"2026-02-{10 + i % 9:02d}T10:{i % 60:02d}:00Z") for i in range(120)], "120 items")
doc("rss-undeclared-prefix", rss("", rss_item(title="Undeclared prefix", link="https://up.example/1", guid="up-1", pub="Tue, 17 Feb 2026 17:36:36 +0000",
                                              extra="<dc:creator>someone</dc:creator>\n")),
    "application/rss+xml", [it("up-1", "https://up.example/1", "Undeclared prefix", "2026-02-17T17:36:36Z")], "a dc: element without its namespace declaration")
doc("rss-unclosed-br", rss("", rss_item(title="Line<br>break", link="https://br.example/1", guid="br-1", pub="Tue, 17 Feb 2026 17:36:36 +0000")),
    "application/rss+xml", [it("br-1", "https://br.example/1", "Line break", "2026-02-17T17:36:36Z")], "an unclosed HTML <br> inside a title")
doc("rss-cdata-nested-end", rss("", rss_item(title="Split CDATA", link="https://cdn.example/1", guid="cdn-1", pub="Tue, 17 Feb 2026 17:36:36 +0000",
                                             desc="<![CDATA[a ]]]]><![CDATA[> b]]>")),
    "application/rss+xml", [it("cdn-1", "https://cdn.example/1", "Split CDATA", "2026-02-17T17:36:36Z")], "a CDATA section split around ]]>")
doc("rss-crlf", rss("", simple_items("crlf.example", n=1)[0]).replace("\n", "\r\n"), "application/rss+xml", simple_items("crlf.example", n=1)[1], "CRLF line ends")
doc("rss-single-quotes", rss("", simple_items("sq.example", n=1)[0], prolog="<?xml version='1.0' encoding='utf-8' ?>\n"), "application/rss+xml", simple_items("sq.example", n=1)[1])
doc("rss-xml11", rss("", simple_items("x11.example", n=1)[0], prolog='<?xml version="1.1" encoding="UTF-8"?>\n'), "application/rss+xml", simple_items("x11.example", n=1)[1], "XML 1.1 declared")
doc("rss-stylesheet", '<?xml version="1.0" encoding="UTF-8"?>\n<?xml-stylesheet type="text/xsl" href="/feed.xsl"?>\n' + rss("", simple_items("xsl.example", n=1)[0], prolog=""),
    "application/rss+xml", simple_items("xsl.example", n=1)[1], "an XSL stylesheet processing instruction")
doc("feedburner", rss('<atom10:link xmlns:atom10="http://www.w3.org/2005/Atom" rel="self" type="application/rss+xml" href="http://feeds.feedburner.com/fb" />\n'
                      '<feedburner:info uri="fb" />\n<atom10:link xmlns:atom10="http://www.w3.org/2005/Atom" rel="hub" href="http://pubsubhubbub.appspot.com/" />\n',
                      rss_item(title="Burned", link="http://feedproxy.google.com/~r/fb/~3/abcDEF/", guid="https://fb.example/burned", permalink="false",
                               pub="Tue, 17 Feb 2026 17:36:36 PST", extra="<feedburner:origLink>https://fb.example/burned</feedburner:origLink>\n"),
                      ns=' xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0"'),
    "text/xml; charset=UTF-8", [it("https://fb.example/burned", "http://feedproxy.google.com/~r/fb/~3/abcDEF/", "Burned", "2026-02-18T01:36:36Z")], "FeedBurner")
doc("ghost", """<?xml version="1.0" encoding="UTF-8"?><rss xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom" version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title><![CDATA[Ghost blog]]></title><description><![CDATA[Thoughts]]></description><link>https://ghost.example/</link><image><url>https://ghost.example/favicon.png</url><title>Ghost blog</title><link>https://ghost.example/</link></image><generator>Ghost 5.79</generator><lastBuildDate>Mon, 16 Feb 2026 10:00:00 GMT</lastBuildDate><atom:link href="https://ghost.example/rss/" rel="self" type="application/rss+xml"/><ttl>60</ttl><item><title><![CDATA[Ghost post]]></title><description><![CDATA[Excerpt]]></description><link>https://ghost.example/ghost-post/</link><guid isPermaLink="false">65cf1a2b3c4d5e0001a2b3c4</guid><category><![CDATA[News]]></category><dc:creator><![CDATA[Editor]]></dc:creator><pubDate>Mon, 16 Feb 2026 09:57:56 GMT</pubDate><media:content url="https://ghost.example/content/images/a.jpg" medium="image"/><content:encoded><![CDATA[<p>Body</p>]]></content:encoded></item></channel></rss>""",
    "application/rss+xml; charset=utf-8", [it("65cf1a2b3c4d5e0001a2b3c4", "https://ghost.example/ghost-post/", "Ghost post", "2026-02-16T09:57:56Z")], "Ghost")
doc("tumblr", """<?xml version="1.0" encoding="UTF-8"?>
<rss xmlns:dc="http://purl.org/dc/elements/1.1/" version="2.0"><channel><description>Tumbling</description><title>A tumblelog</title><generator>Tumblr (3.0; @tumble)</generator><link>https://tumble.tumblr.com/</link><item><title>Photo</title><description>&lt;img src="https://64.media.tumblr.com/a.jpg"/&gt;</description><link>https://tumble.tumblr.com/post/741234567890/photo</link><guid>https://tumble.tumblr.com/post/741234567890</guid><pubDate>Mon, 16 Feb 2026 04:57:56 -0500</pubDate><category>photo</category><dc:creator>tumble</dc:creator></item></channel></rss>
""", "application/rss+xml; charset=utf-8", [it("https://tumble.tumblr.com/post/741234567890", "https://tumble.tumblr.com/post/741234567890/photo", "Photo", "2026-02-16T09:57:56Z")], "Tumblr")
doc("reddit-atom", """<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"><category term="town" label="r/town"/><updated>2026-02-16T10:00:00+00:00</updated><icon>https://www.redditstatic.com/icon.png/</icon><id>/r/town/.rss</id><link rel="self" href="https://www.reddit.com/r/town/.rss" type="application/atom+xml" /><link rel="alternate" href="https://www.reddit.com/r/town/" type="text/html" /><title>town</title><entry><author><name>/u/someone</name><uri>https://www.reddit.com/user/someone</uri></author><category term="town" label="r/town"/><content type="html">&lt;p&gt;text&lt;/p&gt;</content><id>t3_1ar2b3c</id><link href="https://www.reddit.com/r/town/comments/1ar2b3c/bridge_closed/" /><updated>2026-02-16T09:57:56+00:00</updated><published>2026-02-16T09:50:00+00:00</published><title>Bridge closed tonight</title></entry></feed>""",
    "application/atom+xml; charset=UTF-8", [it("t3_1ar2b3c", "https://www.reddit.com/r/town/comments/1ar2b3c/bridge_closed/", "Bridge closed tonight", "2026-02-16T09:50:00Z")], "Reddit")
doc("google-news-style", rss("", rss_item(title="Headline - Example Times", link="https://news.example/rss/articles/CBMiABC?oc=5", guid="CBMiABC", permalink="false",
                                          pub="Mon, 16 Feb 2026 09:57:56 GMT", desc='&lt;a href="https://news.example/a"&gt;Headline&lt;/a&gt;',
                                          extra='<source url="https://times.example">Example Times</source>\n')),
    "application/xml; charset=utf-8", [it("CBMiABC", "https://news.example/rss/articles/CBMiABC?oc=5", "Headline - Example Times", "2026-02-16T09:57:56Z")], "a news aggregator")
doc("drupal", """<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xml:base="https://drupal.example/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>Drupal site</title>
    <link>https://drupal.example/</link>
    <description></description>
    <language>en</language>
    <item>
  <title>Council meeting</title>
  <link>https://drupal.example/node/42</link>
  <description>&lt;span&gt;Council meeting&lt;/span&gt;</description>
  <pubDate>Mon, 16 Feb 2026 09:57:56 +0000</pubDate>
    <dc:creator>editor</dc:creator>
    <guid isPermaLink="false">42 at https://drupal.example</guid>
    </item>
  </channel>
</rss>
""", "application/rss+xml; charset=utf-8", [it("42 at https://drupal.example", "https://drupal.example/node/42", "Council meeting", "2026-02-16T09:57:56Z")], "Drupal: xml:base on rss, guid '42 at ...'")
doc("squarespace", rss("", rss_item(title="Studio news", link="https://squarespace.example/blog/studio-news", guid="5e1f2a3b4c5d6e7f8a9b0c1d:5e1f2a3b4c5d6e7f8a9b0c1e:65cf1a2b3c4d5e0001a2b3c4",
                                    permalink="false", pub="Mon, 16 Feb 2026 09:57:56 +0000", extra="<dc:creator>Studio</dc:creator>\n"),
                       ns=' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:media="http://www.rssboard.org/media-rss"'),
    "application/rss+xml; charset=utf-8", [it("5e1f2a3b4c5d6e7f8a9b0c1d:5e1f2a3b4c5d6e7f8a9b0c1e:65cf1a2b3c4d5e0001a2b3c4", "https://squarespace.example/blog/studio-news", "Studio news", "2026-02-16T09:57:56Z")], "Squarespace")
doc("wix-entities", rss("", rss_item(title="Opening&nbsp;day &amp; more", link="https://wix.example/post/opening-day", guid="abcd1234", permalink="false",
                                     pub="Mon, 16 Feb 2026 09:57:56 GMT")),
    "application/rss+xml", [it("abcd1234", "https://wix.example/post/opening-day", "Opening\u00a0day & more", "2026-02-16T09:57:56Z")], "a site builder writing &nbsp;")
doc("pleroma-atom", """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:thr="http://purl.org/syndication/thread/1.0" xmlns:activity="http://activitystrea.ms/spec/1.0/" xmlns:poco="http://portablecontacts.net/spec/1.0" xmlns:ostatus="http://ostatus.org/schema/1.0">
  <id>https://pleroma.example/users/someone.atom</id>
  <title>someone's timeline</title>
  <updated>2026-02-16T09:57:56.488907</updated>
  <entry>
    <activity:object-type>http://activitystrea.ms/schema/1.0/note</activity:object-type>
    <activity:verb>http://activitystrea.ms/schema/1.0/post</activity:verb>
    <id>https://pleroma.example/objects/0a1b2c3d</id>
    <title>Short note</title>
    <content type="html">Short note</content>
    <published>2026-02-16T09:57:56.488907</published>
    <updated>2026-02-16T09:57:56.488907</updated>
    <ostatus:conversation>https://pleroma.example/contexts/1</ostatus:conversation>
    <link href="https://pleroma.example/notice/AbCdEf" rel="alternate" type="text/html"/>
  </entry>
</feed>
""", "application/atom+xml", [it("https://pleroma.example/objects/0a1b2c3d", "https://pleroma.example/notice/AbCdEf", "Short note", "2026-02-16T09:57:56.488907Z")], "Pleroma: microseconds and no zone")
doc("lemmy", rss("", rss_item(title="Thread title", link="https://lemmy.example/post/123", guid="https://lemmy.example/post/123", permalink="true",
                              pub="Mon, 16 Feb 2026 09:57:56 +0000", extra="<comments>https://lemmy.example/post/123</comments>\n<dc:creator>https://lemmy.example/u/a</dc:creator>\n"),
                 ns=' xmlns:dc="http://purl.org/dc/elements/1.1/"'),
    "application/rss+xml", [it("https://lemmy.example/post/123", "https://lemmy.example/post/123", "Thread title", "2026-02-16T09:57:56Z")], "Lemmy")
doc("bearblog", rss("", rss_item(title="Small web", link="https://bear.example/small-web/", guid="https://bear.example/small-web/", pub="2026-02-16T09:57:56.488907+00:00")),
    "application/rss+xml", [it("https://bear.example/small-web/", "https://bear.example/small-web/", "Small web", "2026-02-16T09:57:56.488907Z")], "a small-web platform with ISO dates in RSS")
doc("atom-summary-only-html-title", atom("", atom_entry("urn:sum:1", "https://sum.example/1", "Release &amp;amp; notes", published="2026-02-16T09:57:56Z", content=None,
                                                     extra='  <summary type="html">&lt;p&gt;Summary&lt;/p&gt;</summary>\n').replace("<title>", '<title type="html">'), title="sum"),
    "application/atom+xml", [it("urn:sum:1", "https://sum.example/1", "Release & notes", "2026-02-16T09:57:56Z")], "an html title with an escaped ampersand")

doc("links-empty-link-permalink-guid", rss("", rss_item(title="Empty link", link="", guid="https://elp.example/1", pub="Tue, 17 Feb 2026 17:36:36 +0000") +
                                           rss_item(title="Blank link", link="  ", guid="https://elp.example/2", permalink="true", pub="Tue, 17 Feb 2026 17:36:36 +0000")),
    "application/rss+xml", [it("https://elp.example/1", "https://elp.example/1", "Empty link", "2026-02-17T17:36:36Z"),
                            it("https://elp.example/2", "https://elp.example/2", "Blank link", "2026-02-17T17:36:36Z")],
    "an empty <link> beside a permalink guid: the guid is the link")
date_feed("dates-zone-forms", [("Tue, 17 Feb 2026 17:36:36 GMT+0100", "2026-02-17T16:36:36Z"), ("Tue, 17 Feb 2026 5:36:36 PM +0000", "2026-02-17T17:36:36Z"),
                               ("Tue, 17 Feb 2026 17:36:36 +00:00", "2026-02-17T17:36:36Z"), ("Tue, 17 Feb 2026 09:36:36 AM EST", "2026-02-17T14:36:36Z"),
                               ("Tue, 17 Feb 2026 12:05:00 PM -0500", "2026-02-17T17:05:00Z"), ("Tue, 17 Feb 2026 12:05:00 AM UTC", "2026-02-17T00:05:00Z")],
          "GMT+hhmm, a 12-hour clock with AM/PM, an offset with a colon")

x, e = simple_items("lcp.example", n=1)
doc("rss-lowercase-pubdate", rss("", x.replace("pubDate>", "pubdate>")), "application/rss+xml", e, "<pubdate> in lowercase, as some generators write it")
doc("dotnet-syndication", '<?xml version="1.0" encoding="utf-8"?><rss xmlns:a10="http://www.w3.org/2005/Atom" version="2.0"><channel><title>.NET</title>'
    '<link>https://dotnet.example/</link><description>d</description><a10:id>https://dotnet.example/feed</a10:id>'
    '<item><guid isPermaLink="false">7d1f4a0e-aaaa-bbbb-cccc-0123456789ab</guid><link>https://dotnet.example/posts/1</link><title>From SyndicationFeed</title>'
    '<description>x</description><a10:updated>2026-02-16T09:57:56.4889071+01:00</a10:updated></item></channel></rss>',
    "application/rss+xml; charset=utf-8", [it("7d1f4a0e-aaaa-bbbb-cccc-0123456789ab", "https://dotnet.example/posts/1", "From SyndicationFeed", "2026-02-16T08:57:56.488907100Z")],
    ".NET's SyndicationFeed: a10:updated with seven fractional digits, no pubDate")
x, e = simple_items("ns.example", n=1)
doc("rss-userland-namespace", rss("", x).replace('<rss version="2.0">', '<rss version="2.0" xmlns="http://backend.userland.com/rss2">'), "application/rss+xml", e,
    "RSS 2.0 in UserLand's namespace")
x, e = simple_items("nover.example", n=1)
doc("rss-no-version", rss("", x).replace('<rss version="2.0">', '<rss>'), "application/rss+xml", e, "<rss> without a version")
x, e = simple_items("ver2.example", n=1)
doc("rss-version-2", rss("", x).replace('<rss version="2.0">', '<rss version="2">'), "application/rss+xml", e, "version 2")
x, e = simple_items("ver201.example", n=1)
doc("rss-version-2-01", rss("", x).replace('<rss version="2.0">', '<rss version="2.01">'), "application/rss+xml", e, "version 2.01")

x, e = simple_items("cdd.example", n=1)
doc("rss-pubdate-cdata", rss("", x.replace("<pubDate>Tue, 17 Feb 2026 17:36:36 +0000</pubDate>", "<pubDate><![CDATA[ Tue, 17 Feb 2026 17:36:36 +0000 ]]></pubDate>")),
    "application/rss+xml", e, "a date in CDATA")
x, e = simple_items("unk.example", n=1, titles=[("Caf\u00e9", "Caf\u00e9")])
doc("encoding-unknown-label", rss("", x, prolog='<?xml version="1.0" encoding="x-user-defined-9"?>\n'), "application/rss+xml", e, "an encoding label nobody knows over UTF-8")
x, e = simple_items("c1.example", n=3, titles=[("Don&#146;t miss it", "Don\u2019t miss it"), ("&#147;Quoted&#148; &#150; dashed", "\u201cQuoted\u201d \u2013 dashed"),
                                               ("Price &#x80;5", "Price \u20ac5")])
doc("entities-c1-references", rss("", x), "application/rss+xml", e, "character references to 128-159 meaning windows-1252, as browsers read them")


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))
    names = set()
    for name, body, ctype, items, note in DOCS:
        if name in names:
            sys.exit("duplicate " + name)
        names.add(name)
        ext = ".json" if ctype.find("json") >= 0 or name.startswith("jsonfeed") else ".xml"
        with open(os.path.join(OUT, name + ext), "wb") as f:
            f.write(body)
        with open(os.path.join(OUT, name + ".expected"), "w", encoding="utf-8") as f:
            if note:
                f.write(f"# {note}\n")
            f.write(f"document: {name}{ext}\n")
            f.write(f"content-type: {ctype}\n")
            for id_, url, title, pub in items:
                # a title is plain text with its whitespace collapsed: a no-break space is a space
                title = title.replace("\u00a0", " ")
                for v in (id_, url, title):
                    assert " | " not in v and "\n" not in v, (name, v)
                f.write(f"{id_} | {url} | {title} | {pub or 'null'}\n")
    print(len(DOCS), "documents")


main()
