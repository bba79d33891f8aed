/*
 * test_layers.c — the layers of src/ stay layered (docs/architecture.md §1.0).
 *
 * tools/layers.txt ranks the directories of src/ (core, engine and mmu at the bottom, load at
 * the top) and lists the includes that still climb. Every `#include "dir/..."` of every file
 * of src/ must name its own layer or a layer of a strictly lower rank, or be listed; a listed
 * include that no longer exists fails too, so the list says exactly what remains. The link
 * says the same of calls (one archive per layer, the Makefile); the test programs are sorted
 * by the same layers (test_tests_by_layer). Which bugs each test catches is said above it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define LAYERS_FILE "tools/layers.txt"

struct layer {
	char name[32];
	int rank;
};

struct climb {
	char file[256];   /* src/net/port.c */
	char header[256]; /* sim/sim.h */
	bool seen;        /* the scan found it */
};

struct layers {
	struct layer layer[32];
	size_t nlayers;
	struct climb climb[128];
	size_t nclimbs;
};

/* Read the table from f ("layer NAME RANK", "climbs FILE HEADER", '#' comments). */
static void layers_read(struct layers *L, FILE *f)
{
	memset(L, 0, sizeof(*L));
	char line[512];
	int lineno = 0;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		char *s = line + strspn(line, " \t");
		if (*s == '#' || *s == '\n' || *s == '\0')
			continue;
		char a[256], b[256];
		int rank;
		if (sscanf(s, "layer %255s %d", a, &rank) == 2) {
			assert_true(L->nlayers < sizeof(L->layer) / sizeof(L->layer[0]));
			assert_true(strlen(a) < sizeof(L->layer[0].name));
			struct layer *y = &L->layer[L->nlayers++];
			strcpy(y->name, a);
			y->rank = rank;
		} else if (sscanf(s, "climbs %255s %255s", a, b) == 2) {
			assert_true(L->nclimbs < sizeof(L->climb) / sizeof(L->climb[0]));
			struct climb *c = &L->climb[L->nclimbs++];
			strcpy(c->file, a);
			strcpy(c->header, b);
		} else {
			fail_msg("%s:%d: expected `layer NAME RANK` or `climbs FILE HEADER`: %s", LAYERS_FILE, lineno, s);
		}
	}
}

static void layers_load(struct layers *L)
{
	FILE *f = fopen(LAYERS_FILE, "r");
	if (!f)
		fail_msg("cannot open %s (tests run from the repository root)", LAYERS_FILE);
	layers_read(L, f);
	fclose(f);
}

static void layers_from_text(struct layers *L, const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	assert_non_null(f);
	layers_read(L, f);
	fclose(f);
}

static int rank_of(const struct layers *L, const char *name)
{
	for (size_t i = 0; i < L->nlayers; i++)
		if (strcmp(L->layer[i].name, name) == 0)
			return L->layer[i].rank;
	return -1;
}

/* May a file of layer `from` include a header of layer `to`? Its own, or a strictly lower
 * one; an unknown layer may neither include nor be included. */
static bool may_include(const struct layers *L, const char *from, const char *to)
{
	int a = rank_of(L, from), b = rank_of(L, to);
	if (a < 0 || b < 0)
		return false;
	return strcmp(from, to) == 0 || b < a;
}

/* The target of a quoted include line ("dir/file.h"), or false for anything else. */
static bool include_target(const char *line, char *out, size_t n)
{
	const char *s = line + strspn(line, " \t");
	if (*s++ != '#')
		return false;
	s += strspn(s, " \t");
	if (strncmp(s, "include", 7) != 0)
		return false;
	s += 7;
	s += strspn(s, " \t");
	if (*s++ != '"')
		return false;
	size_t len = strcspn(s, "\"");
	if (s[len] != '"' || len + 1 > n)
		return false;
	memcpy(out, s, len);
	out[len] = '\0';
	return true;
}

/* The layer a header belongs to: its directory ("sim/sim.h" -> "sim"); false for a header
 * of the including file's own directory ("testlib.h", "tcp_engine.h"). */
static bool header_layer(const char *header, char *out, size_t n)
{
	const char *slash = strchr(header, '/');
	if (!slash || (size_t)(slash - header) + 1 > n)
		return false;
	memcpy(out, header, (size_t)(slash - header));
	out[slash - header] = '\0';
	return true;
}

struct scan {
	struct layers *L;
	unsigned files, includes, climbs_unlisted;
};

static void scan_file(struct scan *sc, const char *path, const char *layer)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char line[1024], header[256], to[64];
	int lineno = 0;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!include_target(line, header, sizeof(header)) || !header_layer(header, to, sizeof(to)))
			continue;
		sc->includes++;
		if (may_include(sc->L, layer, to))
			continue;
		bool listed = false;
		for (size_t i = 0; i < sc->L->nclimbs; i++) {
			struct climb *c = &sc->L->climb[i];
			if (strcmp(c->file, path) == 0 && strcmp(c->header, header) == 0)
				listed = c->seen = true;
		}
		if (!listed) {
			sc->climbs_unlisted++;
			print_error("%s:%d: layer %s includes \"%s\" of layer %s, which is not below it (%s)\n",
				    path, lineno, layer, header, to, LAYERS_FILE);
		}
	}
	fclose(f);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every .c and .h under `dir`, in name order, as files of `layer` (subdirectories too). */
static void scan_dir(struct scan *sc, const char *dir, const char *layer)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	char *names[512];
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		assert_true(n < sizeof(names) / sizeof(names[0]));
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), by_name);
	for (size_t i = 0; i < n; i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		struct stat st;
		assert_int_equal(stat(path, &st), 0);
		size_t len = strlen(names[i]);
		if (S_ISDIR(st.st_mode))
			scan_dir(sc, path, layer);
		else if (len > 2 && (strcmp(names[i] + len - 2, ".c") == 0 || strcmp(names[i] + len - 2, ".h") == 0)) {
			sc->files++;
			scan_file(sc, path, layer);
		}
		free(names[i]);
	}
}

/* Catches: a line that is not an include read as one (or a real include missed), which would
 * let a climbing include through or flag innocent lines. */
static void test_include_parser(void **state)
{
	(void)state;
	char h[256], l[64];
	assert_true(include_target("#include \"sim/sim.h\"\n", h, sizeof(h)));
	assert_string_equal(h, "sim/sim.h");
	assert_true(include_target("  #  include\t\"net/port.h\" /* why */\n", h, sizeof(h)));
	assert_string_equal(h, "net/port.h");
	assert_false(include_target("#include <stdio.h>\n", h, sizeof(h)));
	assert_false(include_target("/* #include \"sim/sim.h\" */\n", h, sizeof(h)));
	assert_false(include_target("#define include \"sim/sim.h\"\n", h, sizeof(h)));
	assert_false(include_target("#include \"sim/sim.h\n", h, sizeof(h))); /* unterminated */
	assert_true(header_layer("engine/engine.h", l, sizeof(l)));
	assert_string_equal(l, "engine");
	assert_false(header_layer("tcp_engine.h", l, sizeof(l)));
}

/* Catches: `b <= a` for `b < a` (layers of one rank, such as engine and mmu, could then
 * include each other), a reversed comparison (every include down refused, every climb let
 * through), an unknown layer taken as the lowest. */
static void test_rule(void **state)
{
	(void)state;
	struct layers L;
	layers_from_text(&L, "# a comment\n"
			     "layer core 0\nlayer engine 1\n  layer mmu 1\nlayer net 2\nlayer sim 6\n"
			     "climbs src/net/port.c sim/sim.h\n");
	assert_int_equal(L.nlayers, 5);
	assert_int_equal(L.nclimbs, 1);
	assert_true(may_include(&L, "net", "net"));
	assert_true(may_include(&L, "net", "engine"));
	assert_true(may_include(&L, "net", "mmu"));
	assert_true(may_include(&L, "net", "core"));
	assert_true(may_include(&L, "sim", "net"));
	assert_false(may_include(&L, "net", "sim"));
	assert_false(may_include(&L, "engine", "net"));
	assert_false(may_include(&L, "engine", "mmu"));
	assert_false(may_include(&L, "mmu", "engine"));
	assert_false(may_include(&L, "core", "engine"));
	assert_false(may_include(&L, "net", "gui"));
	assert_false(may_include(&L, "gui", "core"));
}

/* Catches: the order of tools/layers.txt changed to let a climb through instead of listing
 * it (sim moved down, net put above transport, the MMU library given the engine, the scenario
 * put above the simulator that reads it, the data plane given the simulator). */
static void test_layer_order(void **state)
{
	(void)state;
	struct layers L;
	layers_load(&L);
	const char *order[] = { "core", "engine", "net", "topo", "transport", "workload", "scenario", "sim", "cli", "load" };
	for (size_t i = 1; i < sizeof(order) / sizeof(order[0]); i++)
		assert_true(rank_of(&L, order[i - 1]) >= 0 && rank_of(&L, order[i - 1]) < rank_of(&L, order[i]));
	/* the MMU library stands on core alone: beside the engine, below the network */
	assert_int_equal(rank_of(&L, "mmu"), rank_of(&L, "engine"));
	assert_true(rank_of(&L, "core") < rank_of(&L, "mmu"));
	/* the software switch and the simulator are independent: one rank, above the scenario */
	assert_int_equal(rank_of(&L, "dataplane"), rank_of(&L, "sim"));
}

/* The test programs are in the directory of a layer (tests/LAYER/test_x.c, linked with that
 * layer's archive and those below, the Makefile's) or in tests/realtime/. Catches: a test
 * left at the top of tests/ or in a directory that names no layer, which the build would
 * skip silently (so it would never run). */
static void test_tests_by_layer(void **state)
{
	(void)state;
	struct layers L;
	layers_load(&L);
	DIR *d = opendir("tests");
	assert_non_null(d);
	unsigned layer_dirs = 0;
	for (struct dirent *e; (e = readdir(d));) {
		char path[512];
		struct stat st;
		snprintf(path, sizeof(path), "tests/%s", e->d_name);
		if (e->d_name[0] == '.' || stat(path, &st) != 0)
			continue;
		if (!S_ISDIR(st.st_mode)) {
			if (strncmp(e->d_name, "test_", 5) == 0)
				fail_msg("%s: a test program belongs in the directory of its layer, tests/LAYER/", path);
			continue;
		}
		if (strcmp(e->d_name, "realtime") == 0)
			continue;
		if (rank_of(&L, e->d_name) < 0)
			fail_msg("%s names no layer of %s (tests/LAYER/, or tests/realtime/)", path, LAYERS_FILE);
		layer_dirs++;
	}
	closedir(d);
	assert_true(layer_dirs >= 2);
}

/* Catches: a new directory of src/ that no layer names (its includes would go unchecked). */
static void test_every_directory_is_a_layer(void **state)
{
	(void)state;
	struct layers L;
	layers_load(&L);
	DIR *d = opendir("src");
	assert_non_null(d);
	unsigned dirs = 0;
	for (struct dirent *e; (e = readdir(d));) {
		char path[512];
		struct stat st;
		snprintf(path, sizeof(path), "src/%s", e->d_name);
		if (e->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
			continue;
		dirs++;
		if (rank_of(&L, e->d_name) < 0)
			fail_msg("src/%s is in no layer of %s", e->d_name, LAYERS_FILE);
	}
	closedir(d);
	assert_int_equal(dirs, L.nlayers);
}

/* The check itself. Catches: any new include of a higher layer (sim/sim.h from net/, say), a
 * scan that skips headers or subdirectories (the listed climbs of .h files go unseen), and a
 * list that still names an include that was removed. */
static void test_no_include_climbs(void **state)
{
	(void)state;
	struct layers L;
	layers_load(&L);
	struct scan sc = { .L = &L };
	for (size_t i = 0; i < L.nlayers; i++) {
		char dir[64];
		snprintf(dir, sizeof(dir), "src/%s", L.layer[i].name);
		scan_dir(&sc, dir, L.layer[i].name);
	}
	print_message("%u files, %u includes of a layer's header, %zu listed climbs\n", sc.files, sc.includes,
		      L.nclimbs);
	unsigned stale = 0;
	for (size_t i = 0; i < L.nclimbs; i++)
		if (!L.climb[i].seen) {
			stale++;
			print_error("%s: `climbs %s %s` is listed but no longer exists: delete the line\n", LAYERS_FILE,
				    L.climb[i].file, L.climb[i].header);
		}
	assert_true(sc.files > 100);
	assert_int_equal(sc.climbs_unlisted, 0);
	assert_int_equal(stale, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_include_parser),
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_layer_order),
		cmocka_unit_test(test_every_directory_is_a_layer),
		cmocka_unit_test(test_tests_by_layer),
		cmocka_unit_test(test_no_include_climbs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
