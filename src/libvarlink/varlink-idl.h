/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Varlink interface definitions: the C description of an interface, its IDL text (what
 * org.varlink.service.GetInterfaceDescription returns) and the check of call parameters
 * against it.
 *
 * The check is sd-varlink's (v258), which runs before any method sees a call: the method's input
 * fields in their order (missing or null where not nullable, wrong type, enum value unknown),
 * then keys the method does not define in either direction. The first offending field is
 * named in org.varlink.service.InvalidParameter.
 */
#pragma once

#include <stdbool.h>

#include <json-c/json.h>

typedef enum VarlinkFieldType {
        VARLINK_FIELD_END = 0,
        VARLINK_BOOL,
        VARLINK_INT,
        VARLINK_FLOAT,
        VARLINK_STRING,
        VARLINK_OBJECT,
        VARLINK_NAMED,      /* an enum type of the same interface, named in type_name */
        VARLINK_ENUM_VALUE, /* one value of an enum type */
} VarlinkFieldType;

typedef enum VarlinkFieldFlags {
        VARLINK_NULLABLE = 1 << 0,
        VARLINK_ARRAY = 1 << 1,
} VarlinkFieldFlags;

typedef enum VarlinkDirection {
        VARLINK_INPUT,
        VARLINK_OUTPUT,
} VarlinkDirection;

typedef struct VarlinkField {
        const char *comment; /* one line, or NULL */
        const char *name;
        VarlinkFieldType type;
        VarlinkFieldFlags flags;
        VarlinkDirection direction;
        const char *type_name;
} VarlinkField;

/* Field definitions, comment first as in the IDL text. */
#define VARLINK_INPUT_FIELD(c, n, t, fl) { .comment = (c), .name = (n), .type = (t), .flags = (fl), .direction = VARLINK_INPUT }
#define VARLINK_OUTPUT_FIELD(c, n, t, fl) { .comment = (c), .name = (n), .type = (t), .flags = (fl), .direction = VARLINK_OUTPUT }
#define VARLINK_INPUT_ENUM_FIELD(c, n, tn, fl) \
        { .comment = (c), .name = (n), .type = VARLINK_NAMED, .flags = (fl), .direction = VARLINK_INPUT, .type_name = (tn) }
#define VARLINK_ENUM_VALUE_DEF(c, n) { .comment = (c), .name = (n), .type = VARLINK_ENUM_VALUE }
#define VARLINK_FIELDS_END { .type = VARLINK_FIELD_END }

typedef enum VarlinkSymbolType {
        VARLINK_ENUM_TYPE,
        VARLINK_METHOD,
        VARLINK_ERROR,
} VarlinkSymbolType;

typedef struct VarlinkSymbol {
        VarlinkSymbolType type;
        const char *comment;
        const char *name;
        const VarlinkField *fields; /* terminated by a field of type VARLINK_FIELD_END */
        bool requires_more;         /* methods only: calls without "more" get ExpectedMore */
} VarlinkSymbol;

typedef struct VarlinkInterface {
        const char *name;
        const char *comment;
        const VarlinkSymbol *const *symbols; /* NULL-terminated */
} VarlinkInterface;

/** The IDL text of an interface, as sd-varlink formats it; NULL when out of memory. */
char *varlink_idl_format(const VarlinkInterface *iface);

/**
 * The same, with or without the comments. Without them it is the interface's structure alone, which
 * must equal systemd's where we serve one of its interfaces (the comments are our own words).
 */
char *varlink_idl_format_full(const VarlinkInterface *iface, bool comments);

/** The symbol called name of the given type, or NULL. */
const VarlinkSymbol *varlink_idl_find_symbol(const VarlinkInterface *iface, VarlinkSymbolType type, const char *name);

/**
 * Check call parameters against a method.
 * @v parameters  an object, or NULL for {}
 * @v more        the call has the "more" flag
 * @ret           0 if valid; -EINVAL with *ret_bad_field naming the offending field;
 *                -EBADE when the method requires "more" and the call lacks it
 */
int varlink_idl_validate_call(const VarlinkInterface *iface, const VarlinkSymbol *method,
                              struct json_object *parameters, bool more, const char **ret_bad_field);
