/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * One HTTP GET with the firmware's EFI_HTTP_PROTOCOL (UEFI 2.5, section 29.6) on an address firmware
 * HTTP boot configured. gnu-efi has no HTTP headers: the types below are the specification's.
 */
#include <efi.h>
#include <efilib.h>

#include "assert-fundamental.h"
#include "device-path.h"
#include "efi-cleanup.h"
#include "efi-firmware.h"
#include "efi-http.h"
#include "efi-log.h"
#include "efi-string.h"
#include "efi-ticks.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"
#include "url.h"

#define HTTP_TIMEOUT_USEC (30ULL * 1000 * 1000)     /* without any progress */
#define HTTP_STATUS_200_OK 3                        /* EFI_HTTP_STATUS_CODE */
#define HTTP_STATUS_300_MULTIPLE_CHOICES 10         /* 300 to 307: 10 to 16 */
#define HTTP_STATUS_307_TEMPORARY_REDIRECT 16
#define HTTP_STATUS_400_BAD_REQUEST 17              /* first of the 4xx and 5xx codes */
#define HTTP_STATUS_308_PERMANENT_REDIRECT 41       /* added after the others (UEFI 2.8) */
#define HTTP_METHOD_GET 0
#define HTTP_VERSION_11 1

static EFI_GUID http_service_binding_guid = { 0xbdc8e6af, 0xd9bc, 0x4379,
                                              { 0xa7, 0x2a, 0xe0, 0xc4, 0xe7, 0x5d, 0xae, 0x1c } };
static EFI_GUID http_protocol_guid = { 0x7a59b29b, 0x910b, 0x4171,
                                       { 0x82, 0x42, 0xa8, 0x5a, 0x0d, 0xf2, 0x5b, 0x5b } };

typedef struct {
        BOOLEAN UseDefaultAddress;
        EFI_IPv4_ADDRESS LocalAddress;
        EFI_IPv4_ADDRESS LocalSubnet;
        UINT16 LocalPort;
} HttpV4AccessPoint;

typedef struct {
        UINT32 HttpVersion;
        UINT32 TimeOutMillisec;
        BOOLEAN LocalAddressIsIPv6;
        HttpV4AccessPoint *IPv4Node;
} HttpConfigData;

typedef struct {
        UINT32 Method;
        CHAR16 *Url;
} HttpRequestData;

typedef struct {
        UINT32 StatusCode;
} HttpResponseData;

typedef struct {
        CHAR8 *FieldName;
        CHAR8 *FieldValue;
} HttpHeader;

typedef struct {
        void *Data;             /* HttpRequestData or HttpResponseData */
        UINTN HeaderCount;
        HttpHeader *Headers;
        UINTN BodyLength;
        void *Body;
} HttpMessage;

typedef struct {
        EFI_EVENT Event;
        EFI_STATUS Status;
        HttpMessage *Message;
} HttpToken;

typedef struct HttpProtocol HttpProtocol;
struct HttpProtocol {
        EFI_STATUS (EFIAPI *GetModeData)(HttpProtocol *This, HttpConfigData *Data);
        EFI_STATUS (EFIAPI *Configure)(HttpProtocol *This, HttpConfigData *Data);
        EFI_STATUS (EFIAPI *Request)(HttpProtocol *This, HttpToken *Token);
        EFI_STATUS (EFIAPI *Cancel)(HttpProtocol *This, HttpToken *Token);
        EFI_STATUS (EFIAPI *Response)(HttpProtocol *This, HttpToken *Token);
        EFI_STATUS (EFIAPI *Poll)(HttpProtocol *This);
};

/* A child of the NIC's HTTP service, configured on the address firmware HTTP boot got. */
typedef struct Http {
        EFI_SERVICE_BINDING *binding;
        EFI_HANDLE child;
        HttpProtocol *http;
        bool configured;
        volatile bool done;
        EFI_EVENT event;
        HttpV4AccessPoint access_point;
} Http;

static VOID EFIAPI token_done(EFI_EVENT event, VOID *context) {
        ((Http *) context)->done = true;
}

static void http_close(Http *h) {
        if (h->configured)
                (void) h->http->Configure(h->http, NULL);
        if (h->child)
                (void) h->binding->DestroyChild(h->binding, h->child);
        if (h->event)
                (void) BS->CloseEvent(h->event);
}

static EFI_STATUS http_open(EFI_DEVICE_PATH *via, Http *h) {
        HttpConfigData config = { .HttpVersion = HTTP_VERSION_11, .TimeOutMillisec = HTTP_TIMEOUT_USEC / 1000,
                                  .IPv4Node = &h->access_point };
        EFI_DEVICE_PATH *rest = via;
        EFI_HANDLE nic;
        EFI_STATUS s;

        if (device_path_find_ipv4(via, DEVICE_PATH_FIRMWARE_MAX, (uint8_t *) &h->access_point.LocalAddress,
                                  (uint8_t *) &h->access_point.LocalSubnet) < 0)
                return EFI_UNSUPPORTED;
        if (BS->LocateDevicePath(&http_service_binding_guid, &rest, &nic) != EFI_SUCCESS ||
            BS->HandleProtocol(nic, &http_service_binding_guid, (void **) &h->binding) != EFI_SUCCESS)
                return EFI_UNSUPPORTED;
        s = h->binding->CreateChild(h->binding, &h->child);
        if (EFI_ERROR(s)) {
                h->child = NULL;
                return EFI_UNSUPPORTED;
        }
        if (BS->HandleProtocol(h->child, &http_protocol_guid, (void **) &h->http) != EFI_SUCCESS)
                return EFI_UNSUPPORTED;
        s = h->http->Configure(h->http, &config);
        if (EFI_ERROR(s))
                return EFI_UNSUPPORTED;
        h->configured = true;
        return BS->CreateEvent(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, token_done, h, &h->event);
}

/* Queue a request or response token and poll until the driver completes it or nothing moves for 30 s. */
static EFI_STATUS http_run(Http *h, HttpToken *t, bool request) {
        uint64_t deadline = time_usec() + HTTP_TIMEOUT_USEC;
        EFI_STATUS s;

        h->done = false;
        t->Event = h->event;
        t->Status = EFI_NOT_READY;
        s = request ? h->http->Request(h->http, t) : h->http->Response(h->http, t);
        if (EFI_ERROR(s))
                return s;
        while (!h->done) {
                (void) h->http->Poll(h->http);
                if (time_usec() > deadline) {
                        (void) h->http->Cancel(h->http, t);
                        return EFI_TIMEOUT;
                }
        }
        return t->Status;
}

/* Content-Length of the response, or 0 when it has none or it is not a plain number (a chunked answer:
 * LoadFile copes). */
static uint64_t content_length(const HttpMessage *m) {
        for (UINTN i = 0; i < m->HeaderCount; i++) {
                const char *name = (const char *) m->Headers[i].FieldName, *v = (const char *) m->Headers[i].FieldValue;
                uint64_t n;

                if (!name || !v || !fstrcaseeq(name, "Content-Length"))
                        continue;
                return fparse_uint64(v, fstrlen(v), UINT64_MAX, &n) == 0 ? n : 0;
        }
        return 0;
}

static EFI_STATUS send_get(Http *h, const char *url) {
        _cleanup_ffree_ CHAR16 *url16 = utf8_to_char16(url, fstrlen(url));
        _cleanup_ffree_ char *host = NULL;
        HttpRequestData request = { .Method = HTTP_METHOD_GET };
        HttpHeader headers[3];
        HttpMessage m = { .Data = &request, .HeaderCount = 3, .Headers = headers };
        HttpToken t = { .Message = &m };

        if (!url16 || url_host_header(url, &host) < 0)
                return EFI_OUT_OF_RESOURCES;
        request.Url = url16;
        headers[0] = (HttpHeader) { (CHAR8 *) "Host", (CHAR8 *) host };
        headers[1] = (HttpHeader) { (CHAR8 *) "Accept", (CHAR8 *) "*/*" };
        headers[2] = (HttpHeader) { (CHAR8 *) "User-Agent", (CHAR8 *) "urlboot" };
        return http_run(h, &t, true);
}

/* The status line and headers: the body's length, EFI_NOT_FOUND for an error status. */
static EFI_STATUS receive_head(Http *h, const char *url, uint64_t *ret_length) {
        HttpResponseData response = {};
        HttpMessage m = { .Data = &response };
        HttpToken t = { .Message = &m };
        EFI_STATUS s;

        s = http_run(h, &t, false);
        /* The header array is the caller's; whether names and values are allocations of their own
         * differs between drivers, so it stays (a few hundred bytes, until the kernel starts). */
        if ((response.StatusCode >= HTTP_STATUS_300_MULTIPLE_CHOICES &&
             response.StatusCode <= HTTP_STATUS_307_TEMPORARY_REDIRECT) ||
            response.StatusCode == HTTP_STATUS_308_PERMANENT_REDIRECT)
                return log_efi(EFI_PROTOCOL_ERROR, "%s: the server redirects; refused (no redirect is followed: one "
                               "could lead from https to http). Point the entry at the final URL", url);
        if (response.StatusCode >= HTTP_STATUS_400_BAD_REQUEST)
                return log_efi(EFI_NOT_FOUND, "%s: the server answered with an error (EFI HTTP status %u)", url,
                               (unsigned) response.StatusCode);
        if (EFI_ERROR(s))
                return s;
        if (response.StatusCode != HTTP_STATUS_200_OK)
                return EFI_UNSUPPORTED;
        *ret_length = content_length(&m);
        return *ret_length > 0 ? EFI_SUCCESS : EFI_UNSUPPORTED;
}

static EFI_STATUS receive_body(Http *h, uint8_t *buf, uint64_t length) {
        for (uint64_t got = 0; got < length;) {
                HttpMessage m = { .Body = buf + got, .BodyLength = (UINTN) (length - got) };
                HttpToken t = { .Message = &m };
                EFI_STATUS s = http_run(h, &t, false);

                if (EFI_ERROR(s))
                        return s;
                if (m.BodyLength == 0 || m.BodyLength > length - got)
                        return EFI_DEVICE_ERROR;
                got += m.BodyLength;
        }
        return EFI_SUCCESS;
}

EFI_STATUS http_get(EFI_DEVICE_PATH *via, const char *url, void **ret, size_t *ret_size) {
        _cleanup_ffree_ uint8_t *buf = NULL;
        Http h = {};
        uint64_t length = 0;
        EFI_STATUS s;

        fassert(via);
        fassert(url);
        fassert(ret);
        fassert(ret_size);

        s = http_open(via, &h);
        if (!EFI_ERROR(s)) {
                s = send_get(&h, url);
                /* EDK2 says so for a TLS handshake that failed and for https without a CA list */
                if (s == EFI_ABORTED && fstartswith(url, "https://"))
                        s = log_efi(EFI_SECURITY_VIOLATION, "%s: TLS failed: the server's certificate is not signed by "
                                    "a CA this boot manager pins, or not for this host name; refused", url);
                else if (s == EFI_NOT_FOUND && fstartswith(url, "https://"))
                        s = log_efi(EFI_SECURITY_VIOLATION, "%s: https, but no CA to check the server with (urlbootctl "
                                    "build-manager --ca=, or the firmware's TlsCaCertificate)", url);
        }
        if (!EFI_ERROR(s))
                s = receive_head(&h, url, &length);
        if (!EFI_ERROR(s) && length > SIZE_MAX)
                s = EFI_OUT_OF_RESOURCES;
        if (!EFI_ERROR(s)) {
                buf = fmalloc((size_t) length);
                s = buf ? receive_body(&h, buf, length) : EFI_OUT_OF_RESOURCES;
        }
        http_close(&h);
        if (EFI_ERROR(s))
                return s;
        *ret = TAKE_PTR(buf);
        *ret_size = (size_t) length;
        return EFI_SUCCESS;
}
