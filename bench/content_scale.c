/*
 * content_scale.c - benchmark of content at scale (#20 F5, F6): the time
 * and peak memory of loading and laying out 1, 2 and 4 MB lessons (prose
 * with many small tables, one dense 100-column table, one two-column
 * table, one 4 MB paragraph) and of loading banks of 10,000, 50,000 and
 * 100,000 questions, with the ratios the goals are stated in: peak RSS
 * over the lesson's size (goal: at most 20x), seconds per MB, and time
 * per question as the bank grows (linear: the ratio stays near 1).
 *
 * It prints figures; it asserts nothing (timings are never test
 * conditions).  Inputs are generated into a fresh temporary folder (the
 * review's generators, scaled) and removed at the end.  Every case runs
 * in a child process so its peak RSS (getrusage of the child, from
 * wait4) is its own; the parent only writes files, streaming, so the
 * child starts small.  The load average is printed with the figures
 * because the machine is shared.
 *
 *   bench_content_scale [--width N] [--runs N]
 */
#include "core/layout.h"
#include "core/lesson.h"
#include "core/quizbank.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const words[] = {"lease", "token",	"fencing", "zookeeper", "ephemeral",
				    "znode", "session", "quorum",  "epoch",	"watch"};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Writes about `bytes` of a lesson of the given shape to path. */
static void write_lesson(const char *path, const char *shape, size_t bytes)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	unsigned seed = 1;
	fputs("# Scale\n\n", f);
	if (!strcmp(shape, "sections")) {
		/* Heading, two paragraphs, a 6 x 20 table: about 2.3 KB. */
		for (int s = 0; ftell(f) < (long)bytes; s++) {
			fprintf(f, "## Section %d\n\n", s);
			for (int p = 0; p < 2; p++) {
				for (int w = 0; w < 60; w++)
					fprintf(f, "%s ",
						words[(seed = seed * 1103515245 + 12345) % 10]);
				fputs("\n\n", f);
			}
			fputs("| id | holder | lease | token | state | note |\n"
			      "|---|---|---|---|---|---|\n",
			      f);
			for (int r = 0; r < 20; r++)
				fprintf(f, "| %d | c%d | %ds | %d | held | ok |\n", r, r % 7, r * 3,
					s * 20 + r);
			fputs("\n", f);
		}
	} else if (!strcmp(shape, "dense")) {
		/* The review's table: 100 columns of 1-character cells. */
		fputs("|", f);
		for (int c = 0; c < 100; c++)
			fputs("h|", f);
		fputs("\n|", f);
		for (int c = 0; c < 100; c++)
			fputs("-|", f);
		fputs("\n", f);
		while (ftell(f) < (long)bytes) {
			fputs("|", f);
			for (int c = 0; c < 100; c++)
				fputs("v|", f);
			fputs("\n", f);
		}
	} else if (!strcmp(shape, "twocol")) {
		fputs("| key | value |\n|---|---|\n", f);
		for (int r = 0; ftell(f) < (long)bytes; r++)
			fprintf(f, "| k%d | %s %s |\n", r, words[r % 10], words[(r / 10) % 10]);
	} else { /* one paragraph */
		while (ftell(f) < (long)bytes)
			fprintf(f, "%s ", words[(seed = seed * 1103515245 + 12345) % 10]);
		fputs("\n", f);
	}
	fclose(f);
}

/* <dir>/en/01-scale.md with n questions (the review's generator). */
static void write_bank(const char *dir, int n)
{
	char *sub = wb_xasprintf("%s/en", dir);
	wb_mkdir_p(sub, 0700);
	char *path = wb_xasprintf("%s/01-scale.md", sub);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	fputs("# Self-test: scale\n\n", f);
	for (int i = 0; i < n; i++)
		fprintf(f,
			"## [q-%d] Question %d?\nkind: numeric\nanswer: %d\n\n### Answer\n%d\n\n",
			i, i, i, i);
	fclose(f);
	free(path);
	free(sub);
}

struct result {
	double secs;
	long rss_kb;
	size_t count; /* lines laid out or questions loaded */
};

/* Runs one case in a child: lesson (path, width) or bank (dir). */
static struct result run_case(const char *lesson_path, int width, const char *bank_dir)
{
	int fds[2];
	if (pipe(fds) != 0)
		exit(2);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		double t0 = now();
		struct result r = {0};
		if (lesson_path) {
			struct lesson *l = NULL;
			if (lesson_load(lesson_path, "01-scale", "en", &l) == 0) {
				struct layout *lay = layout_build(l, width);
				r.count = lay->nlines;
				layout_free(lay);
				lesson_free(l);
			}
		} else {
			const char *dirs[] = {bank_dir};
			struct quiz_bank *b = NULL;
			quiz_bank_load(dirs, 1, "en", &b);
			r.count = b->n;
			quiz_bank_free(b);
		}
		r.secs = now() - t0;
		ssize_t w = write(fds[1], &r, sizeof r);
		_exit(w == (ssize_t)sizeof r ? 0 : 1);
	}
	close(fds[1]);
	struct result r = {0};
	ssize_t got = read(fds[0], &r, sizeof r);
	close(fds[0]);
	int st;
	struct rusage ru;
	wait4(pid, &st, 0, &ru);
	if (got != (ssize_t)sizeof r || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "case failed (status %d)\n", st);
		r.secs = -1;
	}
	r.rss_kb = ru.ru_maxrss;
	return r;
}

/* The median of runs by time (runs <= 9). */
static struct result median(struct result *r, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && r[j].secs < r[j - 1].secs; j--) {
			struct result t = r[j];
			r[j] = r[j - 1];
			r[j - 1] = t;
		}
	return r[n / 2];
}

static void load(void)
{
	double la[3] = {0};
	if (getloadavg(la, 3) == 3)
		printf("load average %.2f %.2f %.2f\n", la[0], la[1], la[2]);
}

int main(int argc, char **argv)
{
	int width = 80, runs = 3;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--width") && i + 1 < argc)
			width = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: %s [--width N] [--runs N]\n", argv[0]);
			return 2;
		}
	}
	if (runs < 1 || runs > 9)
		runs = 3;
	char tmpl[] = "/tmp/wb-content-scale.XXXXXX";
	if (!mkdtemp(tmpl)) {
		perror("mkdtemp");
		return 2;
	}
	load();
	printf("lessons: load + layout at width %d, median of %d runs (children)\n", width, runs);
	printf("%-10s %8s %9s %10s %8s %8s %9s\n", "shape", "MB", "seconds", "s per MB", "peak MB",
	       "RSS/size", "lines");
	static const char *const shapes[] = {"sections", "dense", "twocol", "paragraph"};
	static const size_t sizes[] = {1u << 20, 2u << 20, (4u << 20) - 4096};
	for (size_t s = 0; s < WB_ARRAY_LEN(shapes); s++)
		for (size_t k = 0; k < WB_ARRAY_LEN(sizes); k++) {
			char *path = wb_xasprintf("%s/%s-%zu.md", tmpl, shapes[s], k);
			write_lesson(path, shapes[s], sizes[k]);
			struct stat st;
			stat(path, &st);
			struct result rs[9];
			for (int i = 0; i < runs; i++)
				rs[i] = run_case(path, width, NULL);
			struct result m = median(rs, runs);
			double mb = (double)st.st_size / (1 << 20);
			printf("%-10s %8.2f %9.3f %10.3f %8.1f %7.1fx %9zu\n", shapes[s], mb,
			       m.secs, m.secs / mb, (double)m.rss_kb / 1024,
			       (double)m.rss_kb * 1024 / (double)st.st_size, m.count);
			unlink(path);
			free(path);
		}
	load();
	printf("\nbanks: quiz_bank_load of one file, median of %d runs (children)\n", runs);
	printf("%-10s %8s %9s %12s %14s %8s\n", "questions", "MB", "seconds", "us/question",
	       "vs 10k per q", "peak MB");
	static const int counts[] = {10000, 50000, 100000};
	double base = 0;
	for (size_t k = 0; k < WB_ARRAY_LEN(counts); k++) {
		char *dir = wb_xasprintf("%s/bank-%d", tmpl, counts[k]);
		write_bank(dir, counts[k]);
		char *file = wb_xasprintf("%s/en/01-scale.md", dir);
		struct stat st;
		stat(file, &st);
		struct result rs[9];
		for (int i = 0; i < runs; i++)
			rs[i] = run_case(NULL, 0, dir);
		struct result m = median(rs, runs);
		double per = m.secs * 1e6 / counts[k];
		if (!base)
			base = per;
		printf("%-10d %8.2f %9.3f %12.2f %13.2fx %8.1f\n", counts[k],
		       (double)st.st_size / (1 << 20), m.secs, per, per / base,
		       (double)m.rss_kb / 1024);
		if (m.count != (size_t)counts[k])
			printf("  (loaded %zu questions)\n", m.count);
		unlink(file);
		char *sub = wb_xasprintf("%s/en", dir);
		rmdir(sub);
		rmdir(dir);
		free(sub);
		free(file);
		free(dir);
	}
	load();
	rmdir(tmpl);
	return 0;
}
