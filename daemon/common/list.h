/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An intrusive doubly-linked list in the style of systemd's: an object
 * carries LIST_FIELDS() (next, prev), its owner a head pointer; removing
 * needs no search. Walk it with for (p = head; p; p = p->next).
 */
#ifndef FXT_COMMON_LIST_H
#define FXT_COMMON_LIST_H

#define LIST_FIELDS(type) type *next, *prev

#define LIST_PREPEND(head, item)                                           \
	do {                                                               \
		__typeof__(*(item)) **_head = &(head), *_item = (item);   \
		_item->prev = NULL;                                        \
		_item->next = *_head;                                      \
		if (*_head)                                                \
			(*_head)->prev = _item;                            \
		*_head = _item;                                            \
	} while (0)

#define LIST_APPEND(head, item)                                            \
	do {                                                               \
		__typeof__(*(item)) **_head = &(head), *_item = (item),   \
				    *_tail = *_head;                       \
		_item->next = NULL;                                        \
		while (_tail && _tail->next)                               \
			_tail = _tail->next;                               \
		_item->prev = _tail;                                       \
		if (_tail)                                                 \
			_tail->next = _item;                               \
		else                                                       \
			*_head = _item;                                    \
	} while (0)

#define LIST_REMOVE(head, item)                                            \
	do {                                                               \
		__typeof__(*(item)) **_head = &(head), *_item = (item);   \
		if (_item->next)                                           \
			_item->next->prev = _item->prev;                   \
		if (_item->prev)                                           \
			_item->prev->next = _item->next;                   \
		else                                                       \
			*_head = _item->next;                              \
		_item->next = _item->prev = NULL;                          \
	} while (0)

#endif /* FXT_COMMON_LIST_H */
