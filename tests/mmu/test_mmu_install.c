/*
 * test_mmu_install.c — the MMU library as an embedder gets it (docs/mmu.md §7, "Embedding").
 *
 * `make install` (tools/install-mmu.sh) puts libsbmmu.a, the headers of the public mmu.h and
 * sbmmu.pc under a PREFIX. These tests install into a temporary PREFIX and use only what is
 * there, as a program outside this repository would:
 *
 * 1. examples/embed_mmu.c, copied out of the tree, compiles with the flags
 *    `pkg-config --cflags --libs sbmmu` gives (no -Isrc), links, runs, and prints exactly the
 *    output docs/mmu.md §7 shows, and the page shows the example verbatim: the documented
 *    program is the installed library's behaviour.
 * 2. Every installed header compiles alone in C17 with -Wall -Wextra -Werror -pedantic: its
 *    includes resolve in the installed layout and it needs no GNU mode of the embedder's.
 * 3. The archive holds src/core and src/mmu, each object once, nothing of a higher layer, and
 *    the whole of it links against libc and libm alone (an up-call into net/ or sim/ would be
 *    an undefined symbol here).
 * 4. DESTDIR stages the files without changing what sbmmu.pc names, and uninstall leaves no
 *    file behind.
 *
 * The compiler and the optimisation flags are those of this build (SB_BUILD_CC, SB_BUILD_OPT,
 * from the Makefile): a sanitized build's archive links only with the sanitizer's flags. Run
 * from the repository root, as every test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "testlib.h"

#ifndef SB_BUILD_CC
#define SB_BUILD_CC "cc"
#endif
#ifndef SB_BUILD_OPT
#define SB_BUILD_OPT "-O2"
#endif

static char build_dir[4096];

struct sh_out {
	int status;
	char *text; /* stdout and stderr together */
};

static struct sh_out sh(const char *dir, const char *fmt, ...)
{
	char cmd[12288], full[16384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	snprintf(full, sizeof(full), "(%s) > '%s/sh.txt' 2>&1 </dev/null", cmd, dir);
	int rc = system(full);
	struct sh_out o = { rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, tl_slurp_in(dir, "sh.txt") };
	assert_non_null(o.text);
	return o;
}

/* Run a command that must succeed; its output is returned (free it). */
static char *must(const char *dir, const char *what, const char *fmt, const char *arg1, const char *arg2)
{
	struct sh_out o = sh(dir, fmt, arg1, arg2);
	if (o.status != 0)
		fail_msg("%s failed (status %d):\n%s", what, o.status, o.text);
	return o.text;
}

static void install_into(const char *dir, const char *prefix)
{
	char cmd[8192];
	snprintf(cmd, sizeof(cmd), "CC='%s' sh tools/install-mmu.sh install '%s' '%%s'%%s", SB_BUILD_CC, build_dir);
	free(must(dir, "install", cmd, prefix, ""));
}

/* The lines of docs/mmu.md's "Output:" block, the example's documented output. */
static char *documented_output(void)
{
	char *doc = tl_slurp("docs/mmu.md");
	assert_non_null(doc);
	char *at = strstr(doc, "\nOutput:\n\n```\n");
	assert_non_null(at);
	at += strlen("\nOutput:\n\n```\n");
	char *end = strstr(at, "```\n");
	assert_non_null(end);
	char *out = strndup(at, (size_t)(end - at));
	free(doc);
	return out;
}

static void test_example_builds_against_installed_copy(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), prefix[4200];
	snprintf(prefix, sizeof(prefix), "%s/prefix", dir);
	install_into(dir, prefix);
	/* out of the tree, so that nothing but the installed headers can be found */
	free(must(dir, "copy", "cp examples/embed_mmu.c '%s/embed_mmu.c'", dir, ""));
	char cmd[8192];
	snprintf(cmd, sizeof(cmd),
		 "cd '%%s' && PKG_CONFIG_PATH='%%s/lib/pkgconfig' && export PKG_CONFIG_PATH && "
		 "%s -std=c17 -Wall -Wextra -Werror -pedantic %s embed_mmu.c -o embed_mmu "
		 "$(pkg-config --cflags --libs sbmmu)",
		 SB_BUILD_CC, SB_BUILD_OPT);
	free(must(dir, "compiling the example against the installed copy", cmd, dir, prefix));
	char *out = must(dir, "the example", "'%s/embed_mmu'%s", dir, "");
	char *want = documented_output();
	assert_string_equal(out, want);
	free(want), free(out);
	/* and the page shows the program that ran, verbatim */
	char *doc = tl_slurp("docs/mmu.md"), *src = tl_slurp("examples/embed_mmu.c");
	assert_non_null(doc), assert_non_null(src);
	if (!strstr(doc, src))
		fail_msg("docs/mmu.md §7.3 no longer shows examples/embed_mmu.c verbatim");
	free(doc), free(src);
	/* what pkg-config tells an embedder: the installed include root, the archive, libm */
	char *flags = must(dir, "pkg-config", "PKG_CONFIG_PATH='%s/lib/pkgconfig' pkg-config --cflags --libs sbmmu%s",
			   prefix, "");
	char want_i[4300];
	snprintf(want_i, sizeof(want_i), "-I%s/include/sharebuf", prefix);
	assert_non_null(strstr(flags, want_i));
	assert_non_null(strstr(flags, "-lsbmmu"));
	assert_non_null(strstr(flags, "-lm"));
	free(flags);
	tl_rmtree(dir);
	free(dir);
}

static void test_installed_headers_stand_alone(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), prefix[4200], cmd[8192];
	snprintf(prefix, sizeof(prefix), "%s/prefix", dir);
	install_into(dir, prefix);
	char *list = must(dir, "listing", "cd '%s/include/sharebuf' && find . -type f | sed 's|^./||' | sort%s", prefix, "");
	/* mmu.h and the core headers it includes: no scheme's private header, no simulator's */
	assert_string_equal(list, "core/param.h\ncore/rng.h\ncore/time.h\ncore/util.h\nmmu/mmu.h\n");
	for (char *h = strtok(list, "\n"); h; h = strtok(NULL, "\n")) {
		snprintf(cmd, sizeof(cmd),
			 "printf '#include \"%s\"\\n' | %s -std=c17 -Wall -Wextra -Werror -pedantic "
			 "-I'%%s/include/sharebuf' -x c -fsyntax-only -%%s",
			 h, SB_BUILD_CC);
		char what[256];
		snprintf(what, sizeof(what), "compiling the installed %s alone", h);
		free(must(dir, what, cmd, prefix, ""));
	}
	free(list);
	tl_rmtree(dir);
	free(dir);
}

static void test_archive_is_core_and_mmu_alone(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), lib[4200];
	snprintf(lib, sizeof(lib), "%s/libsbmmu.a", build_dir);
	char *members = must(dir, "ar", "ar t '%s' | sort%s", lib, "");
	char *sources = must(dir, "ls", "ls src/core/*.c src/mmu/*.c | sed 's|.*/||; s|\\.c$|.o|' | sort%s", "", "");
	assert_string_equal(members, sources);
	free(members), free(sources);
	/* every member, pulled in whether used or not: all it needs is libc and libm */
	free(must(dir, "writing main", "printf 'int main(void) { return 0; }\\n' > '%s/main.c'%s", dir, ""));
	char cmd[8192];
	snprintf(cmd, sizeof(cmd),
		 "%s %s '%%s/main.c' -Wl,--whole-archive '%%s' -Wl,--no-whole-archive -lm -o /dev/null",
		 SB_BUILD_CC, SB_BUILD_OPT);
	char *dummy = must(dir, "linking the whole archive with libc and libm", cmd, dir, lib);
	free(dummy);
	tl_rmtree(dir);
	free(dir);
}

static void test_destdir_and_uninstall(void **state)
{
	(void)state;
	char *dir = tl_tmpdir(), stage[4200], cmd[8192];
	snprintf(stage, sizeof(stage), "%s/stage", dir);
	snprintf(cmd, sizeof(cmd), "DESTDIR='%%s' CC='%s' sh tools/install-mmu.sh install '%s' /opt/sbmmu%%s",
		 SB_BUILD_CC, build_dir);
	free(must(dir, "install with DESTDIR", cmd, stage, ""));
	char *files = must(dir, "listing", "cd '%s' && find . -type f | sort%s", stage, "");
	assert_string_equal(files, "./opt/sbmmu/include/sharebuf/core/param.h\n"
				   "./opt/sbmmu/include/sharebuf/core/rng.h\n"
				   "./opt/sbmmu/include/sharebuf/core/time.h\n"
				   "./opt/sbmmu/include/sharebuf/core/util.h\n"
				   "./opt/sbmmu/include/sharebuf/mmu/mmu.h\n"
				   "./opt/sbmmu/lib/libsbmmu.a\n"
				   "./opt/sbmmu/lib/pkgconfig/sbmmu.pc\n");
	free(files);
	/* the .pc names where the files end up, not the staging directory */
	char pc[4300];
	snprintf(pc, sizeof(pc), "%s/opt/sbmmu/lib/pkgconfig/sbmmu.pc", stage);
	char *text = tl_slurp(pc);
	assert_non_null(text);
	assert_non_null(strstr(text, "\nprefix=/opt/sbmmu\n"));
	assert_null(strstr(text, stage));
	free(text);
	/* an installed file outside the library's (another package's) stays */
	free(must(dir, "planting", "touch '%s/opt/sbmmu/lib/pkgconfig/other.pc'%s", stage, ""));
	snprintf(cmd, sizeof(cmd), "DESTDIR='%%s' sh tools/install-mmu.sh uninstall '%s' /opt/sbmmu%%s", build_dir);
	free(must(dir, "uninstall", cmd, stage, ""));
	files = must(dir, "listing", "cd '%s' && find . -type f | sort%s", stage, "");
	assert_string_equal(files, "./opt/sbmmu/lib/pkgconfig/other.pc\n");
	free(files);
	char *dirs = must(dir, "listing", "cd '%s' && find . -name sharebuf%s", stage, "");
	assert_string_equal(dirs, "");
	free(dirs);
	tl_rmtree(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_sharebuf_init(argv[0]);
	/* BUILD/sharebuf -> BUILD, whose libsbmmu.a the Makefile builds before this test */
	char prog[4096];
	snprintf(prog, sizeof(prog), "%s", tl_sharebuf_path());
	snprintf(build_dir, sizeof(build_dir), "%s", dirname(prog));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example_builds_against_installed_copy),
		cmocka_unit_test(test_installed_headers_stand_alone),
		cmocka_unit_test(test_archive_is_core_and_mmu_alone),
		cmocka_unit_test(test_destdir_and_uninstall),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
