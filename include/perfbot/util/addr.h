/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ADDR_H
#define PERFBOT_ADDR_H

#include <stddef.h>

/*
 * Mail addresses (util): strict checks for values that end up in mail
 * headers, and the address list that To, Cc and envelopes are made of.
 * A manifest's author must be exactly one mailbox, "addr@domain" or
 * "Name <addr@domain>" (a quoted name may hold specials): never a list,
 * never a group, no comments, no control character, at most
 * ADDR_MAX_MAILBOX bytes. Mail libraries accept much more, which is how
 * "Dev <a@x>, b@y" became two recipients.
 */

#define ADDR_MAX_MAILBOX 512
#define ADDR_MAX_SPEC 254

/*
 * 0 when 'mailbox' is one mailbox as above; else -1 with a short reason
 * in *why (a static string). 'spec', when not NULL, receives the bare
 * addr-spec (at most ADDR_MAX_SPEC bytes and a NUL; 'len' its size).
 */
int addr_check_mailbox(const char *mailbox, char *spec, size_t len,
		       const char **why);
/*
 * The same for 'n' bytes (a NUL among them is refused): the one check of
 * every address perfbot reads, for the configuration and the manifests
 * alike. No C0 or C1 control, DEL, Unicode line or paragraph separator,
 * or bytes that are not UTF-8; UTF-8 itself is allowed (RFC 6531), and
 * sent only to a server that offers SMTPUTF8 (send/smtp.c).
 */
int addr_check_mailbox_n(const char *mailbox, size_t n, char *spec,
			 size_t len, const char **why);

/*
 * 1 when the bare addresses 'a' and 'b' are the same mailbox, a
 * sub-address ("perfbot+x@example.test") being its box's (any case).
 */
int addr_same_box(const char *a, const char *b);

/* The domain of a bare addr-spec (after its last '@'), or NULL. */
const char *addr_domain(const char *spec);

/*
 * The bare address of the first mailbox of 'mailbox' ("Name <addr>",
 * addr, or a list of them) as a mail reader parses it (GMime), newly
 * allocated; NULL when there is none or out of memory.
 */
char *addr_spec(const char *mailbox);

/*
 * 1 when the bare address 'spec' is, by its name, a mailing list: its
 * domain's first label is lists, list, vger, ml, mailman or groups
 * ("linux-fsdevel@vger.kernel.org", "oe-lkp@lists.linux.dev"), the
 * domain is (under) googlegroups.com, groups.io, kvack.org or
 * freelists.org, or the local part ends in -devel, -discuss, -announce,
 * -patches or -commits ("qemu-devel@nongnu.org"); else 0. A heuristic:
 * the configured lists (recipients.cc) are lists whatever their names.
 */
int addr_is_list(const char *spec);

/*
 * 1 when the envelope sender 'spec' is a list's (its bounces and owner
 * addresses): a local part ending in -bounces, -bounce, -owner or
 * -request, starting with owner-, or a VERP "list-bounces+..." or
 * "list+bounces-..."; else 0.
 */
int addr_is_list_envelope(const char *spec);

/*
 * A list of addresses: the To or Cc of a mail ("Name <addr>" as given),
 * or an envelope (bare addresses). It holds at most ADDRLIST_MAX. The
 * adds copy their string and return 0, or -1 when out of memory or full.
 */
#define ADDRLIST_MAX 1000

struct addrlist {
	char **v;
	size_t n;
};

#define ADDRLIST_INIT { NULL, 0 }

void addrlist_init(struct addrlist *l);
void addrlist_release(struct addrlist *l);

/* Append 's' as it is. */
int addrlist_add(struct addrlist *l, const char *s);

/*
 * 1 when 'l' holds a mailbox with the bare address of 'mailbox' (any
 * case); where either has none, the whole strings are compared instead.
 */
int addrlist_has(const struct addrlist *l, const char *mailbox);

/*
 * Append 'mailbox' unless 'l' or 'other' (may be NULL: the To, for the
 * Cc) already has its address.
 */
int addrlist_add_unique(struct addrlist *l, const char *mailbox,
			const struct addrlist *other);

/*
 * Append the bare address of every mailbox of 'mailboxes' ("Name <a>,
 * b@x"; groups and what is not a mailbox are skipped) that 'l' does not
 * hold yet (any case): how an envelope is made.
 */
int addrlist_add_specs(struct addrlist *l, const char *mailboxes);

/* Keep the first 'max' entries. */
void addrlist_cap(struct addrlist *l, size_t max);

/*
 * The state columns' form: a compact JSON list of strings, newly
 * allocated ("[]" when empty); NULL when out of memory or an entry is
 * not UTF-8.
 */
char *addrlist_to_json(const struct addrlist *l);

/*
 * Append the strings of a JSON list (a state column, so never trusted):
 * 0, or -1 with a short reason in *why (a static string) when 'json' is
 * not a list of at most ADDRLIST_MAX strings of at most ADDR_MAX_MAILBOX
 * bytes without a control character; then 'l' is left as it was.
 */
int addrlist_from_json(struct addrlist *l, const char *json,
		       const char **why);

#endif
