/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <json-c/json.h>

#include "fileio.h"
#include "json-writer.h"
#include "macro.h"
#include "mkdir.h"
#include "path-util.h"
#include "string-util.h"
#include "measure-log.h"

#define LOG_SIZE_MAX (16UL * 1024 * 1024)
#define RS '\x1e'

/* TPM_ALG_ID values of the TCG's algorithm registry */
static const struct { uint16_t alg; const char *name; size_t size; } algorithms[] = {
        { 0x0004, "sha1", 20 }, { 0x000b, "sha256", 32 }, { 0x000c, "sha384", 48 }, { 0x000d, "sha512", 64 },
        { 0x0012, "sm3_256", 32 },
};

const char *tpm_alg_name(uint16_t alg) {
        for (size_t i = 0; i < ELEMENTSOF(algorithms); i++)
                if (algorithms[i].alg == alg)
                        return algorithms[i].name;
        return NULL;
}

size_t tpm_alg_digest_size(uint16_t alg) {
        for (size_t i = 0; i < ELEMENTSOF(algorithms); i++)
                if (algorithms[i].alg == alg)
                        return algorithms[i].size;
        return 0;
}

unsigned tpm_alg_from_name(const char *name) {
        for (size_t i = 0; name && i < ELEMENTSOF(algorithms); i++)
                if (streq(algorithms[i].name, name))
                        return algorithms[i].alg;
        return 0;
}

static int digest_from_hex(const char *hex, TpmBankDigest *b) {
        size_t n = hex ? strlen(hex) : 0;

        if (n == 0 || n % 2 || n / 2 != b->size)
                return -EBADMSG;
        for (size_t i = 0; i < b->size; i++) {
                int hi = unhexchar(hex[2 * i]), lo = unhexchar(hex[2 * i + 1]);
                if (hi < 0 || lo < 0)
                        return -EBADMSG;
                b->digest[i] = (uint8_t) (hi << 4 | lo);
        }
        return 0;
}

static const char *string_member(json_object *o, const char *key) {
        json_object *v;

        return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) ?
                json_object_get_string(v) : NULL;
}

static int digests_from_json(json_object *list, TpmEventResult *ret) {
        size_t n;

        if (!json_object_is_type(list, json_type_array))
                return -EBADMSG;
        n = json_object_array_length(list);
        if (n == 0 || n > TPM_EVENT_BANKS_MAX)
                return -EBADMSG;
        *ret = (TpmEventResult) {};
        for (size_t i = 0; i < n; i++) {
                json_object *d = json_object_array_get_idx(list, i);
                TpmBankDigest *b = &ret->banks[ret->n_banks++];
                unsigned alg = tpm_alg_from_name(string_member(d, "hashAlg"));
                if (alg == 0)
                        return -EBADMSG;
                b->alg = (uint16_t) alg;
                b->size = tpm_alg_digest_size((uint16_t) alg);
                if (digest_from_hex(string_member(d, "digest"), b) < 0)
                        return -EBADMSG;
        }
        return 0;
}

/* @ret 1 with a record of a PCR, 0 for a record of something else, -EBADMSG */
static int record_from_json(json_object *o, MeasureLogRecord *ret) {
        json_object *pcr, *digests, *content;
        const char *text = NULL;
        int64_t n;

        *ret = (MeasureLogRecord) {};
        if (!json_object_is_type(o, json_type_object))
                return -EBADMSG;
        if (!json_object_object_get_ex(o, "pcr", &pcr))
                return 0;       /* not a PCR's (systemd 258's NvPCR records): skipped */
        if (!json_object_is_type(pcr, json_type_int) || !json_object_object_get_ex(o, "digests", &digests))
                return -EBADMSG;
        n = json_object_get_int64(pcr);
        if (n < 0 || n > 23)
                return -EBADMSG;
        ret->pcr = (unsigned) n;
        if (digests_from_json(digests, &ret->digests) < 0)
                return -EBADMSG;
        if (json_object_object_get_ex(o, "content", &content))
                text = string_member(content, "string");
        if (text && !(ret->text = strdup(text)))
                return -ENOMEM;
        return 1;
}

static int log_add(MeasureLog *log, const char *text, size_t n) {
        _cleanup_free_ char *copy = strndup(text, n);
        MeasureLogRecord *records;
        json_object *o;
        int r;

        if (!copy)
                return -ENOMEM;
        records = realloc(log->records, (log->n + 1) * sizeof *records);
        if (!records)
                return -ENOMEM;
        log->records = records;
        records[log->n] = (MeasureLogRecord) {};
        o = json_tokener_parse(copy);
        if (!o)
                return -EBADMSG;
        r = record_from_json(o, &records[log->n]);
        json_object_put(o);
        if (r < 0) {
                free(records[log->n].text);
                return r;
        }
        log->n += r;
        return 0;
}

int measure_log_parse(const char *text, size_t size, MeasureLog *ret, size_t *ret_record) {
        MeasureLog log = {};
        size_t pos = 0;
        int r = 0;

        assert(ret);
        while (r >= 0 && pos < size) {
                size_t end;
                if (text[pos] != RS) {
                        r = -EBADMSG;
                        break;
                }
                for (end = ++pos; end < size && text[end] != RS; end++)
                        ;
                r = log_add(&log, text + pos, end - pos);
                pos = end;
        }
        if (r < 0) {
                if (ret_record)
                        *ret_record = log.n;
                measure_log_done(&log);
                return r;
        }
        *ret = log;
        return 0;
}

int measure_log_read(const char *path, MeasureLog *ret, size_t *ret_record) {
        _cleanup_free_ char *text = NULL;
        size_t size = 0;
        int r;

        r = read_full_file(path, LOG_SIZE_MAX, &text, &size);
        if (r == -ENOENT) {
                *ret = (MeasureLog) {};
                return 0;
        }
        return r < 0 ? r : measure_log_parse(text, size, ret, ret_record);
}

void measure_log_done(MeasureLog *log) {
        for (size_t i = 0; i < log->n; i++)
                free(log->records[i].text);
        free(log->records);
        *log = (MeasureLog) {};
}

int measure_log_open_locked(const char *path) {
        _cleanup_free_ char *dir = NULL;
        int fd, r;

        r = path_extract_directory(path, &dir);
        if (r < 0)
                return r;
        r = mkdir_p(dir, 0755);
        if (r < 0)
                return r;
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
        if (fd < 0)
                return -errno;
        if (flock(fd, LOCK_EX) < 0) {
                r = -errno;
                close(fd);
                return r;
        }
        return fd;
}

int measure_log_append(int fd, unsigned pcr, const char *text, const TpmEventResult *digests) {
        _cleanup_free_ char *buf = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&buf, &size);

        if (!f)
                return -ENOMEM;
        fprintf(f, "%c{\"pcr\":%u,\"digests\":[", RS, pcr);
        for (size_t i = 0; i < digests->n_banks; i++) {
                const TpmBankDigest *b = &digests->banks[i];
                fprintf(f, "%s{\"hashAlg\":\"%s\",\"digest\":\"", i ? "," : "", tpm_alg_name(b->alg));
                for (size_t j = 0; j < b->size; j++)
                        fprintf(f, "%02x", b->digest[j]);
                fputs("\"}", f);
        }
        fputs("],\"content_type\":\"systemd\",\"content\":{", f);
        json_write_key(f, "string", true);
        json_write_string(f, text);
        fputs("}}\n", f);
        if (fclose(f) != 0)
                return -ENOMEM;
        return write_all(fd, buf, size);
}

int measure_log_has(const MeasureLog *log, unsigned pcr, const char *text) {
        for (size_t i = 0; i < log->n; i++)
                if (log->records[i].pcr == pcr && streq_ptr(log->records[i].text, text))
                        return true;
        return false;
}
