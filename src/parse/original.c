// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse: quoted originals and forwards without '>' marks. One rule reads
 * them all: a block of three or more header lines ("Key: value", the key
 * one of From, Sent/Date, To, Cc, Subject in the languages of the major
 * mail clients, in any order, with the French space or no-break space
 * before the colon, a fullwidth colon, Outlook's bold "*From:*"), with
 * From among them; or a separator line of the same clients
 * ("-----Original Message-----", "-----邮件原件-----", "-------- Forwarded
 * Message --------", "Begin forwarded message:"). Everything from there
 * on is somebody else's mail. A mutt forward closed by its end line is
 * dropped alone: what follows it is the sender's again.
 */
#include <string.h>
#include <strings.h>

#include "lines.h"

enum hdr { H_NONE, H_FROM, H_DATE, H_TO, H_CC, H_SUBJECT, H_OTHER };

struct key {
	const char *name;
	enum hdr h;
};

/* The header names mail clients write above an original, by language. */
static const struct key keys[] = {
	/* en, de, fr, es, it, nl, pt, sv/da/no, pl, fi, cs, tr, hu */
	{ "From", H_FROM }, { "Von", H_FROM }, { "De", H_FROM },
	{ "Da", H_FROM }, { "Van", H_FROM }, { "Fr\xc3\xa5n", H_FROM },
	{ "Fra", H_FROM }, { "Od", H_FROM }, { "L\xc3\xa4hett\xc3\xa4j\xc3\xa4",
	  H_FROM }, { "Kimden", H_FROM }, { "Felad\xc3\xb3", H_FROM },
	{ "Remetente", H_FROM }, { "Afzender", H_FROM },
	{ "Mittente", H_FROM },
	{ "Sent", H_DATE }, { "Date", H_DATE }, { "Gesendet", H_DATE },
	{ "Datum", H_DATE }, { "Dato", H_DATE }, { "Envoy\xc3\xa9", H_DATE },
	{ "Envoy\xc3\xa9 le", H_DATE }, { "Enviado", H_DATE },
	{ "Enviado el", H_DATE }, { "Enviada", H_DATE },
	{ "Enviada em", H_DATE }, { "Enviado em", H_DATE },
	{ "Inviato", H_DATE }, { "Data", H_DATE }, { "Verzonden", H_DATE },
	{ "Verstuurd", H_DATE }, { "Skickat", H_DATE }, { "Sendt", H_DATE },
	{ "Wys\xc5\x82" "ano", H_DATE }, { "L\xc3\xa4hetetty", H_DATE },
	{ "Odesl\xc3\xa1no", H_DATE }, { "Tarih", H_DATE },
	{ "G\xc3\xb6nderildi", H_DATE }, { "Elk\xc3\xbc" "ldve", H_DATE },
	{ "To", H_TO }, { "An", H_TO }, { "\xc3\x80", H_TO }, { "A", H_TO },
	{ "Para", H_TO }, { "Aan", H_TO }, { "Till", H_TO }, { "Til", H_TO },
	{ "Do", H_TO }, { "Vastaanottaja", H_TO }, { "Komu", H_TO },
	{ "Kime", H_TO }, { "C\xc3\xadmzett", H_TO },
	{ "Cc", H_CC }, { "Kopie", H_CC }, { "Kopie an", H_CC },
	{ "Copie \xc3\xa0", H_CC }, { "Copia", H_CC }, { "C\xc3\xb3pia", H_CC },
	{ "Kopia", H_CC }, { "Kopio", H_CC }, { "DW", H_CC }, { "Bilgi", H_CC },
	{ "M\xc3\xa1solat", H_CC },
	{ "Subject", H_SUBJECT }, { "Betreff", H_SUBJECT },
	{ "Objet", H_SUBJECT }, { "Asunto", H_SUBJECT },
	{ "Oggetto", H_SUBJECT }, { "Onderwerp", H_SUBJECT },
	{ "Assunto", H_SUBJECT }, { "\xc3\x84mne", H_SUBJECT },
	{ "Emne", H_SUBJECT }, { "Temat", H_SUBJECT }, { "Aihe", H_SUBJECT },
	{ "P\xc5\x99" "edm\xc4\x9bt", H_SUBJECT }, { "Konu", H_SUBJECT },
	{ "T\xc3\xa1rgy", H_SUBJECT },
	{ "Reply-To", H_OTHER }, { "Bcc", H_OTHER }, { "Importance", H_OTHER },
	/* ru: От, Отправлено, Дата, Кому, Копия, Тема */
	{ "\xd0\x9e\xd1\x82", H_FROM },
	{ "\xd0\x9e\xd1\x82\xd0\xbf\xd1\x80\xd0\xb0\xd0\xb2\xd0\xbb\xd0\xb5"
	  "\xd0\xbd\xd0\xbe", H_DATE },
	{ "\xd0\x94\xd0\xb0\xd1\x82\xd0\xb0", H_DATE },
	{ "\xd0\x9a\xd0\xbe\xd0\xbc\xd1\x83", H_TO },
	{ "\xd0\x9a\xd0\xbe\xd0\xbf\xd0\xb8\xd1\x8f", H_CC },
	{ "\xd0\xa2\xd0\xb5\xd0\xbc\xd0\xb0", H_SUBJECT },
	/* zh: 发件人 發件人 寄件者, 发送时间 發送時間 日期 時間, 收件人 收件者,
	 * 抄送 副本, 主题 主題 主旨 */
	{ "\xe5\x8f\x91\xe4\xbb\xb6\xe4\xba\xba", H_FROM },
	{ "\xe7\x99\xbc\xe4\xbb\xb6\xe4\xba\xba", H_FROM },
	{ "\xe5\xaf\x84\xe4\xbb\xb6\xe8\x80\x85", H_FROM },
	{ "\xe5\x8f\x91\xe9\x80\x81\xe6\x97\xb6\xe9\x97\xb4", H_DATE },
	{ "\xe7\x99\xbc\xe9\x80\x81\xe6\x99\x82\xe9\x96\x93", H_DATE },
	{ "\xe6\x97\xa5\xe6\x9c\x9f", H_DATE },
	{ "\xe6\x99\x82\xe9\x96\x93", H_DATE },
	{ "\xe6\x94\xb6\xe4\xbb\xb6\xe4\xba\xba", H_TO },
	{ "\xe6\x94\xb6\xe4\xbb\xb6\xe8\x80\x85", H_TO },
	{ "\xe6\x8a\x84\xe9\x80\x81", H_CC },
	{ "\xe5\x89\xaf\xe6\x9c\xac", H_CC },
	{ "\xe4\xb8\xbb\xe9\xa2\x98", H_SUBJECT },
	{ "\xe4\xb8\xbb\xe9\xa1\x8c", H_SUBJECT },
	{ "\xe4\xb8\xbb\xe6\x97\xa8", H_SUBJECT },
	/* ja: 差出人 送信者, 送信日時 日付, 宛先, 件名 */
	{ "\xe5\xb7\xae\xe5\x87\xba\xe4\xba\xba", H_FROM },
	{ "\xe9\x80\x81\xe4\xbf\xa1\xe8\x80\x85", H_FROM },
	{ "\xe9\x80\x81\xe4\xbf\xa1\xe6\x97\xa5\xe6\x99\x82", H_DATE },
	{ "\xe6\x97\xa5\xe4\xbb\x98", H_DATE },
	{ "\xe5\xae\x9b\xe5\x85\x88", H_TO },
	{ "\xe4\xbb\xb6\xe5\x90\x8d", H_SUBJECT },
	/* ko: 보낸 사람, 보낸 날짜, 받는 사람, 참조, 제목 */
	{ "\xeb\xb3\xb4\xeb\x82\xb8 \xec\x82\xac\xeb\x9e\x8c", H_FROM },
	{ "\xeb\xb3\xb4\xeb\x82\xb8 \xeb\x82\xa0\xec\xa7\x9c", H_DATE },
	{ "\xeb\xb0\x9b\xeb\x8a\x94 \xec\x82\xac\xeb\x9e\x8c", H_TO },
	{ "\xec\xb0\xb8\xec\xa1\xb0", H_CC },
	{ "\xec\xa0\x9c\xeb\xaa\xa9", H_SUBJECT },
};

/* The width of a blank before a colon (space, tab, NBSP, NNBSP, thin). */
static size_t colon_blank(const char *s, const char *e)
{
	const unsigned char *p = (const unsigned char *)s;

	if (s < e && (*s == ' ' || *s == '\t'))
		return 1;
	if (e - s >= 2 && p[0] == 0xc2 && p[1] == 0xa0)
		return 2;
	if (e - s >= 3 && p[0] == 0xe2 && p[1] == 0x80 &&
	    (p[2] == 0xaf || p[2] == 0x89))
		return 3;
	return 0;
}

/* ':' or the fullwidth '：' at 's': its width, else 0. */
static size_t colon(const char *s, const char *e)
{
	if (s < e && *s == ':')
		return 1;
	return e - s >= 3 && !memcmp(s, "\xef\xbc\x9a", 3) ? 3 : 0;
}

/* The header a line is ("From: x", "*De :* x", "发件人: x"), or H_NONE. */
static enum hdr header_of(const struct line *l)
{
	const char *s = l->s, *e = l->s + l->len, *p;
	size_t i, k, n;

	while (s < e && (*s == ' ' || *s == '\t' || *s == '*'))
		s++;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		n = strlen(keys[i].name);
		if ((size_t)(e - s) <= n || strncasecmp(s, keys[i].name, n))
			continue;
		for (p = s + n; p < e && *p == '*'; p++)
			;
		for (k = 0; k < 3 && (n = colon_blank(p, e)); k++)
			p += n;
		while (p < e && *p == '*')
			p++;
		if (colon(p, e))
			return keys[i].h;
	}
	return H_NONE;
}

/*
 * Three or more header lines from 'i' (an address wrapped onto a line
 * of its own between them allowed), From and two other kinds among them: an original's.
 * '*end' is where the run of header lines ends (no block starts inside
 * a run that is none).
 */
static int header_block(const struct line *l, size_t i, size_t n,
			size_t *end)
{
	unsigned kinds = 0, lines = 0, distinct, h;
	enum hdr last = H_NONE;
	size_t j;

	for (j = i; j < n && !l[j].patch; j++) {
		h = (unsigned)header_of(&l[j]);
		if (h == H_NONE && j > i && j + 1 < n && (last == H_FROM ||
							  last == H_TO ||
							  last == H_CC) &&
		    memchr(l[j].s, '@', l[j].len) && header_of(&l[j + 1]))
			continue;
		if (h == H_NONE)
			break;
		kinds |= 1u << h;
		last = (enum hdr)h;
		lines++;
	}
	*end = j > i ? j : i + 1;
	kinds &= ~(1u << H_OTHER);
	for (distinct = 0, h = H_FROM; h < H_OTHER; h++)
		distinct += (kinds >> h) & 1;
	return lines >= 3 && (kinds & (1u << H_FROM)) && distinct >= 3;
}

/* The phrases between a separator's dashes, by language. */
static const char *const separators[] = {
	"Original Message", "Original-Nachricht",
	"Urspr\xc3\xbcngliche Nachricht", "Message d'origine",
	"Message original", "Mensaje original", "Messaggio originale",
	"Oorspronkelijk bericht", "Mensagem original",
	"Ursprungligt meddelande", "Oprindelig meddelelse",
	"Oprindelig besked", "Videresendt besked",
	"Opprinnelig melding", "Alkuper\xc3\xa4inen viesti",
	"Wiadomo\xc5\x9b\xc4\x87 oryginalna", "P\xc5\xaf" "vodn\xc3\xad zpr\xc3\xa1va",
	"Forwarded Message", "Forwarded message",
	"Weitergeleitete Nachricht", "Message transf\xc3\xa9r\xc3\xa9",
	"Mensaje reenviado", "Messaggio inoltrato", "Doorgestuurd bericht",
	"Mensagem encaminhada",
	/* Исходное сообщение, Пересылаемое сообщение */
	"\xd0\x98\xd1\x81\xd1\x85\xd0\xbe\xd0\xb4\xd0\xbd\xd0\xbe\xd0\xb5 "
	"\xd1\x81\xd0\xbe\xd0\xbe\xd0\xb1\xd1\x89\xd0\xb5\xd0\xbd\xd0\xb8\xd0\xb5",
	"\xd0\x9f\xd0\xb5\xd1\x80\xd0\xb5\xd1\x81\xd1\x8b\xd0\xbb\xd0\xb0\xd0\xb5"
	"\xd0\xbc\xd0\xbe\xd0\xb5 \xd1\x81\xd0\xbe\xd0\xbe\xd0\xb1\xd1\x89\xd0\xb5"
	"\xd0\xbd\xd0\xb8\xd0\xb5",
	/* 原始邮件 邮件原件 原始郵件 郵件原件 转发邮件 轉寄郵件 */
	"\xe5\x8e\x9f\xe5\xa7\x8b\xe9\x82\xae\xe4\xbb\xb6",
	"\xe9\x82\xae\xe4\xbb\xb6\xe5\x8e\x9f\xe4\xbb\xb6",
	"\xe5\x8e\x9f\xe5\xa7\x8b\xe9\x83\xb5\xe4\xbb\xb6",
	"\xe9\x83\xb5\xe4\xbb\xb6\xe5\x8e\x9f\xe4\xbb\xb6",
	"\xe8\xbd\xac\xe5\x8f\x91\xe9\x82\xae\xe4\xbb\xb6",
	"\xe8\xbd\x89\xe5\xaf\x84\xe9\x83\xb5\xe4\xbb\xb6",
	/* 元のメッセージ 転送されたメッセージ 원본 메시지 전달된 메시지 */
	"\xe5\x85\x83\xe3\x81\xae\xe3\x83\xa1\xe3\x83\x83\xe3\x82\xbb\xe3\x83"
	"\xbc\xe3\x82\xb8",
	"\xe8\xbb\xa2\xe9\x80\x81\xe3\x81\x95\xe3\x82\x8c\xe3\x81\x9f\xe3\x83"
	"\xa1\xe3\x83\x83\xe3\x82\xbb\xe3\x83\xbc\xe3\x82\xb8",
	"\xec\x9b\x90\xeb\xb3\xb8 \xeb\xa9\x94\xec\x8b\x9c\xec\xa7\x80",
	"\xec\xa0\x84\xeb\x8b\xac\xeb\x90\x9c \xeb\xa9\x94\xec\x8b\x9c\xec\xa7"
	"\x80",
	NULL,
};

/* The lines that open a forward by themselves (Apple Mail's, by language). */
static const char *const intros[] = {
	"Begin forwarded message", "Anfang der weitergeleiteten Nachricht",
	"D\xc3\xa9" "but du message r\xc3\xa9" "exp\xc3\xa9" "di\xc3\xa9",
	"D\xc3\xa9" "but du message transf\xc3\xa9r\xc3\xa9",
	"Inicio del mensaje reenviado", "Inizio messaggio inoltrato",
	"Begin doorgestuurd bericht", "In\xc3\xad" "cio da mensagem reencaminhada",
	"In\xc3\xad" "cio da mensagem encaminhada",
	NULL,
};

enum sep { SEP_NONE, SEP_CUT, SEP_FORWARD, SEP_END };

/* s[0..n) is one of 'set', any ASCII case. */
static int phrase_in(const char *s, size_t n, const char *const *set)
{
	for (; *set; set++)
		if (strlen(*set) == n && !strncasecmp(s, *set, n))
			return 1;
	return 0;
}

/* "-----Original Message-----": two dashes or more on each side. */
static enum sep separator(const struct line *l)
{
	const char *s = l->s, *e = l->s + l->len;
	size_t lead = 0, trail = 0;

	while (s < e && text_is_space(*s))
		s++;
	for (; s < e && *s == '-'; s++)
		lead++;
	for (; e > s && e[-1] == '-'; e--)
		trail++;
	while (s < e && text_is_space(*s))
		s++;
	while (e > s && text_is_space(e[-1]))
		e--;
	if (lead < 2 || trail < 2 || s == e)
		return SEP_NONE;
	if (phrase_in(s, (size_t)(e - s), separators))
		return SEP_CUT;
	if (e - s > 23 && !strncasecmp(s, "Forwarded message from ", 23))
		return SEP_FORWARD;	/* mutt */
	return e - s == 21 && !strncasecmp(s, "End forwarded message", 21) ?
		SEP_END : SEP_NONE;
}

/* "Begin forwarded message:", with or without its colon. */
static int intro(const struct line *l)
{
	const char *s = l->s, *e = l->s + l->len;
	size_t c;

	while (s < e && text_is_space(*s))
		s++;
	if (e > s && e[-1] == ':')
		e--;
	else if (e - s >= 3 && (c = colon(e - 3, e)) == 3)
		e -= c;
	while (e > s && text_is_space(e[-1]))
		e--;
	return phrase_in(s, (size_t)(e - s), intros);
}

static int underscores(const struct line *l)
{
	size_t i, n = 0;

	for (i = 0; i < l->len; i++) {
		if (l->s[i] == '_')
			n++;
		else if (!text_is_space(l->s[i]))
			return 0;
	}
	return n >= 10;
}

/* A mutt forward from 'i' to its end line: dropped; the end, or 'n'. */
static size_t forward_end(struct line *l, size_t i, size_t n)
{
	size_t j, k;

	for (j = i + 1; j < n && separator(&l[j]) != SEP_END; j++)
		;
	if (j == n)
		return n;
	for (k = i; k <= j; k++)
		l[k].drop = l[k].theirs = 1;
	return j;
}

size_t original_cut(struct line *l, size_t n)
{
	size_t i, k, end, run = 0;
	enum sep sep;

	for (i = 0; i < n; i++) {
		if (l[i].patch)
			continue;
		sep = separator(&l[i]);
		if (sep == SEP_FORWARD && (end = forward_end(l, i, n)) < n) {
			i = end;
			continue;
		}
		if (sep == SEP_CUT || sep == SEP_FORWARD || intro(&l[i]) ||
		    (i >= run && header_block(l, i, n, &run)))
			break;
	}
	if (i == n)
		return n;
	/* Outlook on the web rules the original off with underscores. */
	for (k = i; k > 0 && line_blank(&l[k - 1]); k--)
		;
	return k > 0 && underscores(&l[k - 1]) ? k - 1 : i;
}
