/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Varlink interface definitions: IDL text and parameter checks.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "string-util.h"
#include "varlink-idl.h"
#include "varlink-json.h"

static const char *type_keyword(const VarlinkField *f) {
        switch (f->type) {
        case VARLINK_BOOL:
                return "bool";
        case VARLINK_INT:
                return "int";
        case VARLINK_FLOAT:
                return "float";
        case VARLINK_STRING:
                return "string";
        case VARLINK_OBJECT:
                return "object";
        case VARLINK_NAMED:
                return f->type_name;
        default:
                return "?";
        }
}

/* "\t# comment\n\tname: ?[]type" for each field of one direction, comma separated. */
static void format_fields(FILE *out, const VarlinkSymbol *s, VarlinkDirection direction, bool comments) {
        bool first = true;

        for (const VarlinkField *f = s->fields; f->type != VARLINK_FIELD_END; f++) {
                if (f->type != VARLINK_ENUM_VALUE && f->direction != direction)
                        continue;
                fputs(first ? "\n" : ",\n", out);
                first = false;
                if (comments && f->comment)
                        fprintf(out, "\t# %s\n", f->comment);
                if (f->type == VARLINK_ENUM_VALUE)
                        fprintf(out, "\t%s", f->name);
                else
                        fprintf(out, "\t%s: %s%s%s", f->name, (f->flags & VARLINK_NULLABLE) ? "?" : "",
                                (f->flags & VARLINK_ARRAY) ? "[]" : "", type_keyword(f));
        }
        if (!first)
                fputc('\n', out);
}

static void format_symbol(FILE *out, const VarlinkSymbol *s, bool comments) {
        static const char *const keyword[] = {
                [VARLINK_ENUM_TYPE] = "type",
                [VARLINK_METHOD] = "method",
                [VARLINK_ERROR] = "error",
        };

        if (comments && s->comment)
                fprintf(out, "# %s\n", s->comment);
        fprintf(out, "%s %s(", keyword[s->type], s->name);
        format_fields(out, s, VARLINK_INPUT, comments);
        fputc(')', out);
        if (s->type == VARLINK_METHOD) {
                fputs(" -> (", out);
                format_fields(out, s, VARLINK_OUTPUT, comments);
                fputc(')', out);
        }
        fputc('\n', out);
}

char *varlink_idl_format_full(const VarlinkInterface *iface, bool comments) {
        char *text = NULL;
        size_t size = 0;
        FILE *out;

        assert(iface);

        out = open_memstream(&text, &size);
        if (!out)
                return NULL;
        if (comments && iface->comment)
                fprintf(out, "# %s\n", iface->comment);
        fprintf(out, "interface %s\n", iface->name);
        for (const VarlinkSymbol *const *s = iface->symbols; *s; s++) {
                fputc('\n', out);
                format_symbol(out, *s, comments);
        }
        if (fclose(out) != 0) {
                free(text);
                return NULL;
        }
        return text;
}

char *varlink_idl_format(const VarlinkInterface *iface) {
        assert(iface);

        return varlink_idl_format_full(iface, true);
}

const VarlinkSymbol *varlink_idl_find_symbol(const VarlinkInterface *iface, VarlinkSymbolType type, const char *name) {
        assert(iface);
        assert(name);

        for (const VarlinkSymbol *const *s = iface->symbols; *s; s++)
                if ((*s)->type == type && streq((*s)->name, name))
                        return *s;
        return NULL;
}

static bool symbol_has_field(const VarlinkSymbol *s, const char *name) {
        for (const VarlinkField *f = s->fields; f->type != VARLINK_FIELD_END; f++)
                if (streq(f->name, name))
                        return true;
        return false;
}

static bool enum_has_value(const VarlinkSymbol *e, struct json_object *v) {
        if (!json_object_is_type(v, json_type_string))
                return false;
        return symbol_has_field(e, json_object_get_string(v));
}

static bool element_is_valid(const VarlinkInterface *iface, const VarlinkField *f, struct json_object *v) {
        switch (f->type) {
        case VARLINK_BOOL:
                return json_object_is_type(v, json_type_boolean);
        case VARLINK_INT:
                /* Strings too: integers beyond 53 bits travel as strings. */
                return varlink_json_is_int_like(v);
        case VARLINK_FLOAT:
                return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int);
        case VARLINK_STRING:
                return json_object_is_type(v, json_type_string);
        case VARLINK_OBJECT:
                return json_object_is_type(v, json_type_object);
        case VARLINK_NAMED: {
                const VarlinkSymbol *e = varlink_idl_find_symbol(iface, VARLINK_ENUM_TYPE, f->type_name);

                return e && enum_has_value(e, v);
        }
        default:
                return false;
        }
}

static bool field_is_valid(const VarlinkInterface *iface, const VarlinkField *f, struct json_object *v) {
        if (!v) /* missing or null: json-c represents both as NULL */
                return f->flags & VARLINK_NULLABLE;
        if (!(f->flags & VARLINK_ARRAY))
                return element_is_valid(iface, f, v);
        if (!json_object_is_type(v, json_type_array))
                return false;
        for (size_t i = 0; i < json_object_array_length(v); i++)
                if (!element_is_valid(iface, f, json_object_array_get_idx(v, i)))
                        return false;
        return true;
}

int varlink_idl_validate_call(const VarlinkInterface *iface, const VarlinkSymbol *method,
                              struct json_object *parameters, bool more, const char **ret_bad_field) {
        assert(iface);
        assert(method);
        assert(ret_bad_field);

        if (method->requires_more && !more)
                return -EBADE;

        for (const VarlinkField *f = method->fields; f->type != VARLINK_FIELD_END; f++) {
                struct json_object *v = NULL;

                if (f->direction != VARLINK_INPUT)
                        continue;
                if (parameters)
                        (void) json_object_object_get_ex(parameters, f->name, &v);
                if (!field_is_valid(iface, f, v)) {
                        *ret_bad_field = f->name;
                        return -EINVAL;
                }
        }

        /* Output fields are "defined" too: sd-varlink only refuses names the method lacks entirely. */
        if (parameters) {
                json_object_object_foreach(parameters, key, value) {
                        (void) value;
                        if (!symbol_has_field(method, key)) {
                                *ret_bad_field = key;
                                return -EINVAL;
                        }
                }
        }
        return 0;
}
