/* test_readcap.c - base/wb.c's capped reads (review r3 N6):
 * wb_read_file_max takes a regular file up to its limit and no byte more,
 * refuses a device (/dev/zero), a FIFO (without blocking in open) and a
 * folder as not regular, and a file over the limit; wb_read_fd_max stops
 * an endless pipe one byte past the limit; wb_read_strerror words them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/wb.h"
#include "testlib.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char *write_file(const char *dir, const char *name, size_t n)
{
	char *path = wb_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	for (size_t i = 0; i < n; i++)
		fputc('a' + (int)(i % 26), f);
	assert_int_equal(fclose(f), 0);
	return path;
}

static void test_regular_files(void **state)
{
	(void)state;
	char dir[256];
	assert_int_equal(testlib_tmpdir("readcap", dir, sizeof dir), 0);
	char *text;
	size_t len;
	char *path = write_file(dir, "ten", 10);
	assert_int_equal(wb_read_file_max(path, 10, &text, &len), 0); /* exactly the limit */
	assert_int_equal(len, 10);
	assert_memory_equal(text, "abcdefghij", 11); /* NUL-terminated */
	free(text);
	assert_int_equal(wb_read_file_max(path, 9, &text, &len), WB_ERANGE);
	free(path);
	path = write_file(dir, "empty", 0);
	assert_int_equal(wb_read_file_max(path, 0, &text, &len), 0);
	assert_int_equal(len, 0);
	assert_string_equal(text, "");
	free(text);
	free(path);
	/* Past the first buffer: the growth stops at the limit. */
	path = write_file(dir, "big", 300000);
	assert_int_equal(wb_read_file_max(path, 300000, &text, &len), 0);
	assert_int_equal(len, 300000);
	assert_int_equal(text[299999], 'a' + 299999 % 26);
	free(text);
	assert_int_equal(wb_read_file_max(path, 299999, &text, &len), WB_ERANGE);
	free(path);
	path = wb_xasprintf("%s/missing", dir);
	assert_int_equal(wb_read_file_max(path, 10, &text, &len), WB_ENOENT);
	free(path);
	testlib_rmtree(dir);
}

static void test_not_regular(void **state)
{
	(void)state;
	char dir[256];
	assert_int_equal(testlib_tmpdir("readcap", dir, sizeof dir), 0);
	char *text;
	size_t len;
	assert_int_equal(wb_read_file_max("/dev/zero", 1u << 20, &text, &len), WB_EINVAL);
	assert_int_equal(wb_read_file_max(dir, 1u << 20, &text, &len), WB_EINVAL);
	/* A FIFO with no writer: open(O_RDONLY) would block for ever. */
	char *fifo = wb_xasprintf("%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(wb_read_file_max(fifo, 1u << 20, &text, &len), WB_EINVAL);
	free(fifo);
	testlib_rmtree(dir);
}

static void test_endless_pipe(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		char buf[4096];
		memset(buf, 'y', sizeof buf);
		for (;;)
			if (write(p[1], buf, sizeof buf) < 0)
				_exit(0);
	}
	close(p[1]);
	char *text = NULL;
	size_t len = 0;
	assert_int_equal(wb_read_fd_max(p[0], 1u << 20, &text, &len), WB_ERANGE);
	assert_null(text);
	close(p[0]); /* the writer gets EPIPE and ends */
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* What fits comes whole. */
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "hello", 5), 5);
	close(p[1]);
	assert_int_equal(wb_read_fd_max(p[0], 5, &text, &len), 0);
	assert_int_equal(len, 5);
	assert_string_equal(text, "hello");
	free(text);
	close(p[0]);
}

static void test_messages(void **state)
{
	(void)state;
	char buf[96];
	assert_string_equal(wb_read_strerror(WB_ERANGE, 64u << 20, buf, sizeof buf),
			    "larger than 64 MiB, the limit for this file");
	assert_string_equal(wb_read_strerror(WB_ERANGE, 100, buf, sizeof buf),
			    "larger than 100 bytes, the limit for this file");
	assert_string_equal(wb_read_strerror(WB_EINVAL, 100, buf, sizeof buf),
			    "not a regular file");
	assert_string_equal(wb_read_strerror(WB_ENOENT, 100, buf, sizeof buf), "not found");
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regular_files),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_endless_pipe),
		cmocka_unit_test(test_messages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
