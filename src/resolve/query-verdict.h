/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What the front stub and the upstream filter do with one query: the decision alone, without
 * sockets, so that tests and the fuzz target see exactly what the servers do.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dns-query.h"
#include "refuse-set.h"

typedef enum QueryVerdict {
        VERDICT_RELAY,          /**< pass the bytes on unchanged (the stub: to 127.0.0.53) */
        VERDICT_RELAY_DNSSEC,   /**< the stub: pass on to the DNSSEC bypass (127.0.0.54), the query has DO */
        VERDICT_ANSWER,         /**< send the answer we made instead */
} QueryVerdict;

/**
 * The front stub's decision: a listed type gets v258's REFUSED, everything else is relayed.
 *
 * @v refused   the effective RefuseRecordTypes=
 * @v native    systemd ≥ 258 refuses by itself: relay everything
 * @v nsid      resolved's NSID for clients that ask (NULL: none)
 * @v ret_answer  with VERDICT_ANSWER: the answer (free())
 * @ret         the verdict, or -ENOMEM
 */
int stub_verdict(const RefuseSet *refused, bool native, const uint8_t *query, size_t size, const char *nsid,
                 uint8_t **ret_answer, size_t *ret_answer_size);

/**
 * The upstream filter's decision: a listed type gets NODATA (never REFUSED, which makes resolved 252
 * try another server), everything else goes upstream.
 *
 * @v ret_info  with VERDICT_RELAY: the query as inspected, when it is one (ret_info->question set;
 *              free with dns_query_info_done()); question NULL otherwise
 * @ret         VERDICT_RELAY, VERDICT_ANSWER, or -ENOMEM
 */
int filter_verdict(const RefuseSet *refused, bool native, const uint8_t *query, size_t size,
                   DnsQueryInfo *ret_info, uint8_t **ret_answer, size_t *ret_answer_size);
