/* util.c: allocation, strings, growable buffers, civil dates,
 * RFC 3339 times, the clock (TASK_NOW) and the terminal (want_color)
 * (util.h); err_set is in err.c, now_get in now.c. */
#define _DEFAULT_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		abort();
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		abort();
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		abort();
	return q;
}

char *
xstrdup(const char *s)
{
	return s ? xstrndup(s, strlen(s)) : NULL;
}

char *
xstrndup(const char *s, size_t n)
{
	if (!s)
		return NULL;
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = 0;
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	/* Said outright: under the sanitizers GCC's -Wformat-truncation
	 * otherwise supposes a null format here. */
	if (!fmt)
		abort();
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	char *p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void
set_str(char **dst, const char *src)
{
	char *copy = xstrdup(src);
	free(*dst);
	*dst = copy;
}

int
str_empty(const char *s)
{
	if (!s)
		return 1;
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return 0;
	return 1;
}

char *
str_trim(char *s)
{
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	size_t i = 0;
	while (isspace((unsigned char)s[i]))
		i++;
	if (i)
		memmove(s, s + i, n - i + 1);
	return s;
}

int
str_casecmp_prefix(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if (tolower((unsigned char)*s) != tolower((unsigned char)*prefix))
			return 1;
	return 0;
}

char **
str_words(const char *list, size_t *n)
{
	char *copy = xstrdup(list ? list : ""), *save = NULL;
	char **v = xcalloc(strlen(copy) / 2 + 2, sizeof *v);
	*n = 0;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save))
		if (*str_trim(w))
			v[(*n)++] = xstrdup(w);
	free(copy);
	return v;
}

void
str_words_free(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void
buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->data = xrealloc(b->data, cap);
		b->cap = cap;
	}
	if (n)
		memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = 0;
}

void
buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	buf_add(b, "", 0);
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = b->len + (size_t)n + 1;
		b->data = xrealloc(b->data, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void
buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void
buf_wipe(struct buf *b)
{
	if (b->data)
		explicit_bzero(b->data, b->cap);
	buf_free(b);
}

int
buf_read_fd(struct buf *b, int fd, size_t max)
{
	char tmp[65536];
	for (;;) {
		ssize_t r = read(fd, tmp, sizeof tmp);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		if (b->len + (size_t)r > max)
			return -1;
		buf_add(b, tmp, (size_t)r);
	}
	buf_add(b, "", 0);
	return 0;
}

/* Howard Hinnant's civil-date algorithms: exact for the proleptic Gregorian
 * calendar without any table or libc time zone state. */
int64_t
days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

void
civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

int
days_in_month(int64_t y, unsigned m)
{
	static const int dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return m >= 1 && m <= 12 ? dm[m - 1] : 0;
}

int
weekday_from_days(int64_t z)
{
	return (int)(z >= -4 ? (z + 4) % 7 : (z + 5) % 7 + 6);
}

uint64_t
str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

int64_t
floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

int
cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

void
time_fmt_utc(int64_t t, char *buf, size_t n)
{
	int64_t days = floor_div(t, 86400), secs = t - days * 86400;
	int64_t y;
	unsigned m, d;
	civil_from_days(days, &y, &m, &d);
	snprintf(buf, n, "%04lld-%02u-%02uT%02d:%02d:%02dZ", (long long)y, m, d,
	    (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60));
}

void
duration_fmt(int64_t ms, char *buf, size_t n)
{
	if (ms < 0)
		snprintf(buf, n, "-");
	else if (ms < 1000)
		snprintf(buf, n, "%lldms", (long long)ms);
	else if (ms < 60000)
		snprintf(buf, n, "%.1fs", (double)ms / 1000);
	else
		snprintf(buf, n, "%lldm%02llds", (long long)(ms / 60000), (long long)(ms / 1000 % 60));
}

static int
digits(const char **p, int n, int *out)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)**p))
			return -1;
		v = v * 10 + (*(*p)++ - '0');
	}
	*out = v;
	return 0;
}

int
time_parse_rfc3339(const char *s, int64_t *t)
{
	int y, mo, d, h, mi, sec = 0, oh = 0, om = 0, sign = 0;
	const char *p = s;
	if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) || *p++ != '-' ||
	    digits(&p, 2, &d))
		return -1;
	if (*p != 'T' && *p != 't' && *p != ' ')
		return -1;
	p++;
	if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi))
		return -1;
	if (*p == ':') {
		p++;
		if (digits(&p, 2, &sec))
			return -1;
		if (*p == '.' || *p == ',') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -1;
			while (isdigit((unsigned char)*p))
				p++;
		}
	}
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		sign = *p++ == '-' ? -1 : 1;
		if (digits(&p, 2, &oh))
			return -1;
		if (*p == ':')
			p++;
		if (digits(&p, 2, &om))
			return -1;
	} else {
		return -1;
	}
	if (*p)
		return -1;
	if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, (unsigned)mo) || h > 23 ||
	    mi > 59 || sec > 60 || oh > 23 || om > 59)
		return -1;
	if (sec == 60)
		sec = 59;
	*t = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + sec -
	    sign * (oh * 3600 + om * 60);
	return 0;
}

int
uuid4(char out[37])
{
	unsigned char b[16];
	size_t got = 0;
	while (got < sizeof b) {
		ssize_t r = getrandom(b + got, sizeof b - got, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		got += (size_t)r;
	}
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	static const char hex[] = "0123456789abcdef";
	char *p = out;
	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*p++ = '-';
		*p++ = hex[b[i] >> 4];
		*p++ = hex[b[i] & 15];
	}
	*p = 0;
	return 0;
}

int
id_prefix_ok(const char *s)
{
	size_t hexdigits = 0;
	for (; *s; s++) {
		if (isxdigit((unsigned char)*s))
			hexdigits++;
		else if (*s != '-')
			return 0;
	}
	return hexdigits >= 4;
}

int
want_color(int fd)
{
	const char *nc = getenv("NO_COLOR");
	return isatty(fd) && !(nc && *nc);
}

int64_t
mono_ms(void)
{
	struct timespec ts;
	/* Boot time goes on during a suspend, as the wall-clock leases do. */
	if (clock_gettime(CLOCK_BOOTTIME, &ts) != 0)
		clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t
wall_ms(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return 0;
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t
year_of(int64_t t)
{
	int64_t y;
	unsigned m, d;
	civil_from_days(floor_div(t, 86400), &y, &m, &d);
	return y;
}
