/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Fewer receive calls for an https body: OpenSSL reading ahead, where that cannot stall.
 *
 * OpenSSL reads each TLS record with two receive calls, its 5-byte header and then its body: 8,218
 * calls for a 64 MiB file against 1,043 over http, and on a virtual machine a system call is dear.
 * With read-ahead it fills a 64 KiB buffer per call. But libcurl 7.88 asks SSL_pending() whether
 * decrypted data waits before it polls the socket again, and records read ahead and not yet
 * decrypted do not count: the last records of a body then sit in OpenSSL's buffer while libcurl
 * waits for the socket, until the server closes the connection. So read-ahead is switched on only
 * for a response whose server said it closes the connection after it ("Connection: close"): its end
 * of the stream wakes libcurl, which then drains the buffer. urlboot-pull asks every server to close
 * (one request per handle, nothing to reuse), and a server that does not promise it is read as before.
 */
#pragma once

#include <curl/curl.h>

/** Before the request: a read buffer large enough for several records (an OpenSSL libcurl only). */
void tls_read_ahead_prepare(CURL *curl);

/** Once the response's headers are in and promised a close: read ahead from here on. */
void tls_read_ahead_enable(CURL *curl);
