/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Intrusive doubly linked lists: an item has "prev" and "next" members, the list is a head pointer.
 */
#pragma once

#define LIST_LINK(head, item)                  \
        do {                                   \
                (item)->prev = NULL;           \
                (item)->next = (head);         \
                if (head)                      \
                        (head)->prev = (item); \
                (head) = (item);               \
        } while (0)

#define LIST_UNLINK(head, item)                            \
        do {                                               \
                if ((item)->prev)                          \
                        (item)->prev->next = (item)->next; \
                else                                       \
                        (head) = (item)->next;             \
                if ((item)->next)                          \
                        (item)->next->prev = (item)->prev; \
                (item)->prev = (item)->next = NULL;        \
        } while (0)
