/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for the measurement of system extensions: which ones systemd-sysext 252 merges (its
 * extension_release_validate() rules), their names, the measured text, the event log's format. The tree
 * digest is checked against an independent serialisation in Python (test/sysext/tree-digest.py). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extension-release.h"
#include "measure-log.h"
#include "string-util.h"
#include "sysext-digest.h"
#include "tests.h"

static int matches(const char *ext, const HostRelease *host) {
        char **fields = NULL;
        int r;

        ASSERT_OK(release_fields_parse(ext, strlen(ext), &fields));
        r = extension_release_matches(fields, host, NULL);
        strv_free(fields);
        return r;
}

TEST(release_rules) {
        HostRelease debian = { .id = "debian", .version_id = "12", .scope = "system", .architecture = "x86-64" };
        HostRelease rolling = { .id = "arch", .scope = "system", .architecture = "x86-64" };
        HostRelease levelled = { .id = "fedora", .version_id = "41", .sysext_level = "2", .scope = "system",
                                 .architecture = "x86-64" };
        HostRelease initrd = debian;

        initrd.scope = "initrd";
        ASSERT_EQ(matches("ID=debian\nVERSION_ID=12\n", &debian), 1);
        ASSERT_EQ(matches("ID=debian\nVERSION_ID=\"12\"\n", &debian), 1);
        ASSERT_EQ(matches("ID=debian\nVERSION_ID=11\n", &debian), 0);
        ASSERT_EQ(matches("ID=debian\n", &debian), 0);                  /* the host has a version */
        ASSERT_EQ(matches("ID=fedora\nVERSION_ID=12\n", &debian), 0);
        ASSERT_EQ(matches("ID=_any\n", &debian), 1);
        ASSERT_EQ(matches("VERSION_ID=12\n", &debian), 0);              /* no ID */
        ASSERT_EQ(matches("# nothing\n", &debian), 0);                  /* no data */
        ASSERT_EQ(matches("ID=arch\n", &rolling), 1);
        ASSERT_EQ(matches("ID=fedora\nSYSEXT_LEVEL=2\nVERSION_ID=40\n", &levelled), 1);
        ASSERT_EQ(matches("ID=fedora\nSYSEXT_LEVEL=3\nVERSION_ID=41\n", &levelled), 0);
        ASSERT_EQ(matches("ID=fedora\nVERSION_ID=41\n", &levelled), 1); /* no level: the version */
        ASSERT_EQ(matches("ID=debian\nVERSION_ID=12\nARCHITECTURE=arm64\n", &debian), 0);
        ASSERT_EQ(matches("ID=debian\nVERSION_ID=12\nARCHITECTURE=_any\n", &debian), 1);
        ASSERT_EQ(matches("ID=debian\nVERSION_ID=12\nARCHITECTURE=x86-64\n", &debian), 1);
        ASSERT_EQ(matches("ID=debian\nVERSION_ID=12\n", &initrd), 0);   /* default scope: system portable */
        ASSERT_EQ(matches("ID=debian\nVERSION_ID=12\nSYSEXT_SCOPE=initrd system\n", &initrd), 1);
        ASSERT_EQ(matches("ID=debian\nVERSION_ID=12\nSYSEXT_SCOPE=portable\n", &debian), 0);
}

TEST(names_and_text) {
        char dir[] = "/tmp/test-sysext-XXXXXX", *name = NULL, *path = NULL, *text = NULL;

        ASSERT_TRUE(mkdtemp(dir) != NULL);
        ASSERT_TRUE(asprintf(&path, "%s/tools.raw", dir) > 0);
        FILE *f = fopen(path, "w");
        ASSERT_TRUE(f != NULL);
        fputs("abc", f);
        fclose(f);
        ASSERT_OK(sysext_name_from_path(path, &name));
        ASSERT_STREQ(name, "tools");
        free(name);
        ASSERT_OK(sysext_event_text_of_image(path, &text));
        /* SHA-256 of "abc" */
        ASSERT_STREQ(text, "sysext:tools:sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        free(text);
        ASSERT_OK(sysext_name_from_path(dir, &name));   /* a directory keeps its whole name */
        ASSERT_TRUE(startswith(name, "test-sysext-") != NULL);
        free(name);

        /* a sidecar that is not hex is refused, not measured as something else */
        char *sidecar = NULL;
        ASSERT_TRUE(asprintf(&sidecar, "%s/tools.roothash", dir) > 0);
        f = fopen(sidecar, "w");
        fputs("not-hex\n", f);
        fclose(f);
        ASSERT_EQ(sysext_event_text_of_image(path, &text), -EBADMSG);
        f = fopen(sidecar, "w");
        fputs("00FF\n", f);
        fclose(f);
        ASSERT_OK(sysext_event_text_of_image(path, &text));
        ASSERT_STREQ(text, "sysext:tools:verity:00ff");
        free(text);
        unlink(sidecar);
        unlink(path);
        rmdir(dir);
        free(sidecar);
        free(path);
}

TEST(log_format) {
        const char good[] = "\x1e{\"pcr\":13,\"digests\":[{\"hashAlg\":\"sha1\",\"digest\":"
                            "\"0000000000000000000000000000000000000001\"}],\"content_type\":\"systemd\","
                            "\"content\":{\"string\":\"sysext:a:tree:00\"}}\n";
        MeasureLog log = {};
        size_t bad = 0;

        ASSERT_OK(measure_log_parse(good, strlen(good), &log, &bad));
        ASSERT_EQ(log.n, 1u);
        ASSERT_EQ(log.records[0].pcr, 13u);
        ASSERT_EQ(log.records[0].digests.banks[0].digest[19], 1);
        ASSERT_TRUE(measure_log_has(&log, 13, "sysext:a:tree:00"));
        ASSERT_FALSE(measure_log_has(&log, 12, "sysext:a:tree:00"));
        measure_log_done(&log);

        const char nvpcr[] = "\x1e{\"nv_index\":29360128,\"digests\":[]}\n";
        ASSERT_OK(measure_log_parse(nvpcr, strlen(nvpcr), &log, &bad));
        ASSERT_EQ(log.n, 0u);
        measure_log_done(&log);
        ASSERT_OK(measure_log_parse("", 0, &log, &bad));
        ASSERT_EQ(log.n, 0u);
        /* a digest of the wrong size, an unknown bank, a PCR out of range, no record separator */
        ASSERT_EQ(measure_log_parse("\x1e{\"pcr\":13,\"digests\":[{\"hashAlg\":\"sha1\",\"digest\":\"00\"}]}", 56,
                                    &log, &bad), -EBADMSG);
        const char *bad_logs[] = {
                "\x1e{\"pcr\":13,\"digests\":[{\"hashAlg\":\"md5\",\"digest\":\"00\"}]}",
                "\x1e{\"pcr\":24,\"digests\":[{\"hashAlg\":\"sha1\",\"digest\":\"0000000000000000000000000000000000000001\"}]}",
                "{\"pcr\":13}",
                "\x1e[]",
        };
        for (size_t i = 0; i < sizeof bad_logs / sizeof *bad_logs; i++)
                ASSERT_EQ(measure_log_parse(bad_logs[i], strlen(bad_logs[i]), &log, &bad), -EBADMSG);
}
