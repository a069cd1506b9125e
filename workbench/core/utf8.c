/*
 * utf8.c - UTF-8 decoding and display width (see utf8.h for the contract).
 *
 * The wide and zero-width ranges follow Unicode 15's EastAsianWidth W/F and
 * general categories Mn/Me/Cf closely enough for prose, code and box
 * drawing; emoji outside the listed blocks count as one column.
 */
#include "core/utf8.h"
#include "core/wb.h"

struct range {
	uint32_t lo, hi;
};

static const struct range zero_width[] = {
	{0x0300, 0x036F}, {0x0483, 0x0489},   {0x0591, 0x05BD}, {0x05BF, 0x05BF}, {0x05C1, 0x05C2},
	{0x05C4, 0x05C5}, {0x05C7, 0x05C7},   {0x0610, 0x061A}, {0x064B, 0x065F}, {0x0670, 0x0670},
	{0x06D6, 0x06DC}, {0x06DF, 0x06E4},   {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E},
	{0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF},   {0x200B, 0x200F}, {0x202A, 0x202E}, {0x2060, 0x2064},
	{0x20D0, 0x20FF}, {0x302A, 0x302F},   {0x3099, 0x309A}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F},
	{0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF},
};

static const struct range wide[] = {
	{0x1100, 0x115F},   {0x231A, 0x231B},	{0x2329, 0x232A},   {0x23E9, 0x23EC},
	{0x23F0, 0x23F0},   {0x23F3, 0x23F3},	{0x25FD, 0x25FE},   {0x2614, 0x2615},
	{0x2648, 0x2653},   {0x267F, 0x267F},	{0x2693, 0x2693},   {0x26A1, 0x26A1},
	{0x26AA, 0x26AB},   {0x26BD, 0x26BE},	{0x26C4, 0x26C5},   {0x26CE, 0x26CE},
	{0x26D4, 0x26D4},   {0x26EA, 0x26EA},	{0x26F2, 0x26F3},   {0x26F5, 0x26F5},
	{0x26FA, 0x26FA},   {0x26FD, 0x26FD},	{0x2705, 0x2705},   {0x270A, 0x270B},
	{0x2728, 0x2728},   {0x274C, 0x274C},	{0x274E, 0x274E},   {0x2753, 0x2755},
	{0x2757, 0x2757},   {0x2795, 0x2797},	{0x27B0, 0x27B0},   {0x27BF, 0x27BF},
	{0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},	{0x2B55, 0x2B55},   {0x2E80, 0x303E},
	{0x3041, 0x33FF},   {0x3400, 0x4DBF},	{0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
	{0xA960, 0xA97F},   {0xAC00, 0xD7A3},	{0xF900, 0xFAFF},   {0xFE10, 0xFE19},
	{0xFE30, 0xFE6F},   {0xFF00, 0xFF60},	{0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F},
	{0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

static int in_ranges(uint32_t cp, const struct range *r, size_t n)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (cp < r[mid].lo)
			hi = mid;
		else if (cp > r[mid].hi)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

size_t utf8_decode(const char *str, size_t n, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	if (n == 0) {
		*cp = UTF8_REPLACEMENT;
		return 0;
	}
	unsigned char c = s[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	size_t len;
	uint32_t v, min;
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2, v = c & 0x1F, min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3, v = c & 0x0F, min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4, v = c & 0x07, min = 0x10000;
	} else {
		*cp = UTF8_REPLACEMENT;
		return 1;
	}
	if (len > n) {
		*cp = UTF8_REPLACEMENT;
		return 1;
	}
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80) {
			*cp = UTF8_REPLACEMENT;
			return 1;
		}
		v = (v << 6) | (s[i] & 0x3F);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
		*cp = UTF8_REPLACEMENT;
		return 1;
	}
	*cp = v;
	return len;
}

int utf8_valid(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp);
		if (cp == UTF8_REPLACEMENT && k == 1)
			return 0;
		i += k;
	}
	return 1;
}

char *utf8_repair(const char *s, size_t n)
{
	struct wb_buf b = {0};
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp);
		if (cp == UTF8_REPLACEMENT && k == 1)
			wb_buf_append(&b, "\xEF\xBF\xBD", 3);
		else
			wb_buf_append(&b, s + i, k);
		i += k;
	}
	return wb_buf_steal(&b);
}

size_t utf8_encode(uint32_t cp, char *out)
{
	unsigned char *o = (unsigned char *)out;
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = UTF8_REPLACEMENT;
	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (unsigned char)(0xC0 | (cp >> 6));
		o[1] = (unsigned char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (unsigned char)(0xE0 | (cp >> 12));
		o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (unsigned char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (unsigned char)(0xF0 | (cp >> 18));
	o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (unsigned char)(0x80 | (cp & 0x3F));
	return 4;
}

int utf8_cp_width(uint32_t cp)
{
	if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
		return 0;
	if (cp < 0x300)
		return 1;
	if (in_ranges(cp, zero_width, (sizeof(zero_width) / sizeof(zero_width[0]))))
		return 0;
	if (in_ranges(cp, wide, (sizeof(wide) / sizeof(wide[0]))))
		return 2;
	return 1;
}

int utf8_width(const char *s, size_t n)
{
	int w = 0;
	size_t i = 0;
	while (i < n) {
		uint32_t cp;
		i += utf8_decode(s + i, n - i, &cp);
		w += utf8_cp_width(cp);
	}
	return w;
}

int utf8_is_cjk_breakable(uint32_t cp)
{
	return (cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
	       (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
	       (cp >= 0x20000 && cp <= 0x3FFFD);
}

int utf8_no_break_before(uint32_t cp)
{
	switch (cp) {
	case ',':
	case '.':
	case ';':
	case ':':
	case '!':
	case '?':
	case ')':
	case ']':
	case '}':
	case 0x3001:
	case 0x3002:
	case 0xFF0C:
	case 0xFF1B:
	case 0xFF1A:
	case 0xFF1F:
	case 0xFF01:
	case 0xFF09:
	case 0x300D:
	case 0x300F:
	case 0x3011:
	case 0x300B:
	case 0x3009:
	case 0x201D:
	case 0x2019:
	case 0x2026:
	case 0xFF5E:
	case 0x3015:
	case 0xFF3D:
	case 0xFF5D:
	case 0x30FC:
	case 0x2014: return 1;
	}
	return 0;
}

int utf8_no_break_after(uint32_t cp)
{
	switch (cp) {
	case '(':
	case '[':
	case '{':
	case 0xFF08:
	case 0x300C:
	case 0x300E:
	case 0x3010:
	case 0x300A:
	case 0x3008:
	case 0x201C:
	case 0x2018:
	case 0x3014:
	case 0xFF3B:
	case 0xFF5B: return 1;
	}
	return 0;
}

uint32_t utf8_fold(uint32_t cp)
{
	return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
}
