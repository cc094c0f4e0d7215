/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The rules against a replaying server and for what runs (issue 38): an entry list's generation and age
 * (src/fundamental/rollout-list.c), the bytes an entry may start (entry-image.c), the watchdog of a trial
 * (trial-watchdog.c), the pin as a Type #1 key and the watchdog as a loader.conf key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bls.h"
#include "entry-image.h"
#include "fileio.h"
#include "loader-conf.h"
#include "pe-writer.h"
#include "rollout-list.h"
#include "sha256.h"
#include "tests.h"
#include "trial-watchdog.h"

TEST(list_meta) {
        static const char text[] = "# made by urlbootctl\ngeneration 44\nmade 1733443200\nmax-age 604800\nfuture-key x\n";
        char buf[ROLLOUT_LIST_META_MAX];
        RolloutListMeta m, again;

        ASSERT_OK(rollout_list_meta_parse(text, strlen(text), &m));
        ASSERT_EQ(m.generation, 44);
        ASSERT_EQ(m.made, 1733443200);
        ASSERT_EQ(m.max_age, 604800);
        rollout_list_meta_format(&m, buf, sizeof buf);
        ASSERT_STREQ(buf, "generation 44\nmade 1733443200\nmax-age 604800\n");
        ASSERT_OK(rollout_list_meta_parse(buf, strlen(buf), &again));
        ASSERT_TRUE(again.generation == 44 && again.made == m.made && again.max_age == m.max_age);
        /* max-age may be absent: no limit */
        ASSERT_OK(rollout_list_meta_parse("generation 1\nmade 0\n", 20, &m));
        ASSERT_EQ(m.max_age, 0);
        /* without generation or made; generation 0; a key twice; not a number; past 2^53 - 1 */
        ASSERT_EQ(rollout_list_meta_parse("made 5\n", 7, &m), -EBADMSG);
        ASSERT_EQ(rollout_list_meta_parse("generation 5\n", 13, &m), -EBADMSG);
        ASSERT_EQ(rollout_list_meta_parse("generation 0\nmade 5\n", 20, &m), -EINVAL);
        ASSERT_EQ(rollout_list_meta_parse("generation 5\ngeneration 6\nmade 5\n", 34, &m), -EINVAL);
        ASSERT_EQ(rollout_list_meta_parse("generation -5\nmade 5\n", 21, &m), -EINVAL);
        ASSERT_EQ(rollout_list_meta_parse("generation 9007199254740992\nmade 5\n", 35, &m), -EINVAL);
        ASSERT_OK(rollout_list_meta_parse("generation 9007199254740991\nmade 5\n", 35, &m));
        /* a NUL ends the text: what follows is not read */
        ASSERT_EQ(rollout_list_meta_parse("made 5\n\0generation 5\n", 21, &m), -EBADMSG);
}

TEST(generation_rule) {
        RolloutListMeta older = { .generation = 41 }, same = { .generation = 43 }, newer = { .generation = 44 };

        ASSERT_TRUE(rollout_list_newer_or_same(0, &older));     /* nothing taken yet */
        ASSERT_FALSE(rollout_list_newer_or_same(43, &older));   /* the replay */
        ASSERT_TRUE(rollout_list_newer_or_same(43, &same));
        ASSERT_TRUE(rollout_list_newer_or_same(43, &newer));
}

TEST(kept_list) {
        static const uint8_t entries[] = "image-44.conf=uki-url :image-44.efi\0image-43.conf=uki-url :image-43.efi";
        RolloutListMeta m = { .generation = 44, .made = 100, .max_age = 7 }, back;
        const uint8_t *e;
        uint8_t *kept;
        size_t size, n;

        ASSERT_OK(rollout_list_cache_make(&m, entries, sizeof entries, 4096, &kept, &size));
        ASSERT_OK(rollout_list_cache_parse(kept, size, &back, &e, &n));
        ASSERT_TRUE(back.generation == 44 && back.made == 100 && back.max_age == 7);
        ASSERT_EQ(n, sizeof entries);
        ASSERT_TRUE(memcmp(e, entries, n) == 0);
        /* no NUL after the record, or a record that is not one */
        ASSERT_EQ(rollout_list_cache_parse(kept, strlen((char *) kept), &back, &e, &n), -EBADMSG);
        ASSERT_EQ(rollout_list_cache_parse((const uint8_t *) "generation x\0", 13, &back, &e, &n), -EBADMSG);
        free(kept);
        ASSERT_EQ(rollout_list_cache_make(&m, entries, sizeof entries, 64, &kept, &size), -E2BIG);
}

TEST(list_info) {
        RolloutListInfo i = { .meta = { .generation = 44, .made = 100 }, .source = ROLLOUT_LIST_KEPT_REFUSED,
                              .refused = 41 }, back;
        char buf[ROLLOUT_LIST_INFO_MAX];
        size_t n = rollout_list_info_format(&i, buf, sizeof buf);

        ASSERT_STREQ(buf, "generation 44\nmade 100\nmax-age 0\nsource kept-refused-older\nrefused 41\n");
        ASSERT_OK(rollout_list_info_parse(buf, n, &back));
        ASSERT_TRUE(back.meta.generation == 44 && back.source == ROLLOUT_LIST_KEPT_REFUSED && back.refused == 41);
        ASSERT_EQ(rollout_list_info_parse("generation 4\nmade 1\n", 20, &back), -EBADMSG);
        ASSERT_EQ(rollout_list_info_parse("generation 4\nmade 1\nsource elsewhere\n", 37, &back), -EINVAL);
}

TEST(list_age) {
        RolloutListMeta m = { .generation = 1, .made = 1000, .max_age = 100 };
        uint64_t age;

        ASSERT_EQ(rollout_list_age(&m, 1050, &age), ROLLOUT_LIST_FRESH);
        ASSERT_EQ(age, 50);
        ASSERT_EQ(rollout_list_age(&m, 1100, &age), ROLLOUT_LIST_FRESH);
        ASSERT_EQ(rollout_list_age(&m, 1101, &age), ROLLOUT_LIST_EXPIRED);
        ASSERT_EQ(rollout_list_age(&m, 999, &age), ROLLOUT_LIST_FROM_FUTURE);
        ASSERT_EQ(age, 0);
        m.max_age = 0;
        ASSERT_EQ(rollout_list_age(&m, 1000000, &age), ROLLOUT_LIST_FRESH);
}

TEST(sha256_hex) {
        uint8_t d[SHA256_DIGEST_SIZE];
        char hex[65];

        sha256_digest("abc", 3, d);
        sha256_to_hex(d, hex);
        ASSERT_STREQ(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        ASSERT_TRUE(sha256_hex_valid(hex, 64));
        ASSERT_FALSE(sha256_hex_valid(hex, 63));
        hex[3] = 'A';
        ASSERT_FALSE(sha256_hex_valid(hex, 64));
}

TEST(pin_in_type1_entry) {
        static const char pin[] = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        char text[300];
        BlsEntry *e = NULL;

        snprintf(text, sizeof text, "uki-url :image-44.efi\nurlboot-sha256 %s\n", pin);
        ASSERT_OK(bls_entry_parse("image-44.conf", text, strlen(text), &e));
        ASSERT_STREQ(e->pin, pin);
        bls_entry_free(e);
        /* a pin that cannot hold, or two: the entry is refused, never left unpinned */
        ASSERT_EQ(bls_entry_parse("a.conf", "uki-url :a.efi\nurlboot-sha256 BA78\n", 35, &e), -EINVAL);
        snprintf(text, sizeof text, "uki-url :a.efi\nurlboot-sha256 %s\nurlboot-sha256 %s\n", pin, pin);
        ASSERT_EQ(bls_entry_parse("a.conf", text, strlen(text), &e), -EINVAL);
        ASSERT_OK(bls_entry_parse("a.conf", "uki-url :a.efi\n", 15, &e));
        ASSERT_TRUE(e->pin == NULL);
        bls_entry_free(e);
}

/* The stub with sections appended: a UKI when .linux is among them. */
static void *make_image(const char *stub_image, size_t stub_size, bool uki, size_t *ret_size) {
        PeNewSection add[] = { { ".osrel", "ID=test\n", 8 }, { ".linux", "MZ-kernel", 9 } };
        char error[256];
        void *out;

        ASSERT_OK(pe_append_sections(stub_image, stub_size, add, uki ? 2 : 1, &out, ret_size, error, sizeof error));
        return out;
}

TEST(entry_image_rules) {
        const char *stub = getenv("URLBOOT_TEST_STUB");
        char *stub_image, hex[65], text[300];
        uint8_t digest[SHA256_DIGEST_SIZE];
        void *uki, *not_uki;
        size_t stub_size, uki_size, not_uki_size;
        BlsEntry *e = NULL;

        if (!stub || access(stub, F_OK) < 0) {
                test_note("no stub built (gnu-efi missing): skipped");
                return;
        }
        ASSERT_OK(read_full_file(stub, 16 << 20, &stub_image, &stub_size));
        uki = make_image(stub_image, stub_size, true, &uki_size);
        not_uki = make_image(stub_image, stub_size, false, &not_uki_size);

        /* unpinned uki-url: a UKI passes, another EFI program (a signed kernel, GRUB) does not, nor non-PE */
        ASSERT_OK(bls_entry_parse("a.conf", "uki-url :a.efi\n", 15, &e));
        ASSERT_EQ(entry_image_check(e, uki, uki_size, digest), ENTRY_IMAGE_OK);
        ASSERT_EQ(entry_image_check(e, not_uki, not_uki_size, digest), ENTRY_IMAGE_NOT_UKI);
        ASSERT_EQ(entry_image_check(e, "#!/bin/sh\n", 10, digest), ENTRY_IMAGE_NOT_PE);
        bls_entry_free(e);
        /* an efi entry starts any EFI program */
        ASSERT_OK(bls_entry_parse("b.conf", "efi /EFI/tools/x.efi\n", 21, &e));
        ASSERT_EQ(entry_image_check(e, not_uki, not_uki_size, digest), ENTRY_IMAGE_OK);
        bls_entry_free(e);

        /* pinned: exactly those bytes; the digest is theirs either way */
        sha256_digest(uki, uki_size, digest);
        sha256_to_hex(digest, hex);
        snprintf(text, sizeof text, "uki-url :a.efi\nurlboot-sha256 %s\n", hex);
        ASSERT_OK(bls_entry_parse("a.conf", text, strlen(text), &e));
        memset(digest, 0, sizeof digest);
        ASSERT_EQ(entry_image_check(e, uki, uki_size, digest), ENTRY_IMAGE_OK);
        ASSERT_EQ(digest[0], (uint8_t) strtoul((char[]) { hex[0], hex[1], 0 }, NULL, 16));
        ASSERT_EQ(entry_image_check(e, not_uki, not_uki_size, digest), ENTRY_IMAGE_PIN_MISMATCH);
        ((uint8_t *) uki)[uki_size - 1] ^= 1;
        ASSERT_EQ(entry_image_check(e, uki, uki_size, digest), ENTRY_IMAGE_PIN_MISMATCH);
        bls_entry_free(e);
        free(uki);
        free(not_uki);
        free(stub_image);
}

static bool hands_over(const char *s) {
        return trial_watchdog_cmdline_hands_over(s, strlen(s));
}

TEST(trial_watchdog) {
        ASSERT_TRUE(hands_over("console=ttyS0 systemd.watchdog_sec=30 quiet"));
        ASSERT_TRUE(hands_over("systemd.watchdog_sec=1min"));
        ASSERT_TRUE(hands_over("systemd.watchdog_sec=infinity"));
        ASSERT_FALSE(hands_over("console=ttyS0 quiet"));
        ASSERT_FALSE(hands_over("systemd.watchdog_sec=0"));
        ASSERT_FALSE(hands_over("systemd.watchdog_sec=off"));
        ASSERT_FALSE(hands_over("systemd.watchdog_sec=0s"));
        ASSERT_FALSE(hands_over("systemd.watchdog_sec="));
        ASSERT_FALSE(hands_over("xsystemd.watchdog_sec=30"));
        /* systemd takes the last word */
        ASSERT_FALSE(hands_over("systemd.watchdog_sec=30 systemd.watchdog_sec=off"));
        ASSERT_TRUE(hands_over("systemd.watchdog_sec=off\tsystemd.watchdog_sec=30"));
        /* a NUL ends the command line */
        ASSERT_FALSE(trial_watchdog_cmdline_hands_over("quiet\0systemd.watchdog_sec=30", 29));

        /* Linux's i6300esb driver: seconds << 9 per stage, within 20 bits */
        ASSERT_EQ(trial_watchdog_esb_preload(30), 30 << 9);
        ASSERT_EQ(trial_watchdog_esb_preload(120), 120 << 9);
        ASSERT_EQ(trial_watchdog_esb_preload(TRIAL_WATCHDOG_MAX_SEC), TRIAL_WATCHDOG_MAX_SEC << 9);
        ASSERT_EQ(trial_watchdog_esb_preload(5000), 0xfffff);
        ASSERT_EQ(trial_watchdog_esb_preload(0), 1);
}

TEST(loader_conf_watchdog) {
        LoaderConf c;

        loader_conf_init(&c);
        ASSERT_EQ(c.rollout_watchdog, TRIAL_WATCHDOG_DEFAULT_SEC);
        ASSERT_OK(loader_conf_parse(&c, "urlboot-rollout-watchdog 300\n", 29));
        ASSERT_EQ(c.rollout_watchdog, 300);
        ASSERT_OK(loader_conf_parse(&c, "urlboot-rollout-watchdog no\n", 28));
        ASSERT_EQ(c.rollout_watchdog, 0);
        ASSERT_OK(loader_conf_parse(&c, "urlboot-rollout-watchdog 9999\n", 30));  /* past the hardware: ignored */
        ASSERT_EQ(c.rollout_watchdog, 0);
        loader_conf_done(&c);
}
