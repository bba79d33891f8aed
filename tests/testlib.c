#include "testlib.h"
#include "sim/report.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include "cli/cfgfile.h"
#include "mmu/mmu.h"
#include "transport/cbr.h"
#include "transport/transport.h"

void tl_scenario(struct sb_scenario *sc, const char *text, const char *const *sets, size_t nsets)
{
	struct sb_error err = { "" };
	sb_scenario_defaults(sc);
	if (sb_cfg_load(sc, NULL, text, sets, nsets, &err) || sb_scenario_validate(sc, &err))
		fail_msg("scenario: %s", err.msg);
	sc->run.check_invariants = true;
}

static void run_checked(struct sb_sim *sim, const struct sb_scenario *sc, bool keep, const char *stream_dir)
{
	struct sb_error err = { "" };
	if (sb_sim_build(sim, sc, &err))
		fail_msg("build: %s", err.msg);
	sim->flows.keep_finished = keep;
	if (stream_dir && sb_report_stream(sim, stream_dir, &err))
		fail_msg("stream: %s", err.msg);
	sb_sim_run(sim);
	if (sb_sim_check(sim, &err))
		fail_msg("invariants: %s", err.msg);
}

void tl_run_checked(struct sb_sim *sim, const struct sb_scenario *sc)
{
	run_checked(sim, sc, false, NULL);
}

void tl_run_kept(struct sb_sim *sim, const struct sb_scenario *sc)
{
	run_checked(sim, sc, true, NULL);
}

char *tl_run_streamed(struct sb_sim *sim, const struct sb_scenario *sc)
{
	char *dir = tl_tmpdir();
	run_checked(sim, sc, false, dir);
	return dir;
}

char *tl_tmpdir(void)
{
	char *t = strdup("/tmp/sbtest.XXXXXX");
	if (!t || !mkdtemp(t))
		fail_msg("mkdtemp failed");
	return t;
}

void tl_rmtree(const char *dir)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", dir);
}

char *tl_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (s)
		s[n] = 0;
	fclose(f);
	return s;
}

void tl_set_scheme(struct sb_scenario *sc, const char *name, const char *param, const char *value)
{
	free(sc->sw.scheme);
	sc->sw.scheme = strdup(name);
	if (!param)
		return;
	size_t i = 0;
	const struct sb_bm_ops *const *s = sb_bm_all();
	for (; *s && strcmp((*s)->name, name); s++)
		i++;
	if (!*s)
		fail_msg("no scheme %s", name);
	struct sb_error err;
	const struct sb_param *p = sb_param_find((*s)->params, param);
	if (!p || sb_param_set_text(p, sc->scheme_params[i], value, &err))
		fail_msg("scheme %s: cannot set %s = %s", name, param, value);
}

struct sb_flow *tl_cbr(struct sb_sim *sim, uint32_t src, uint32_t dst, uint64_t rate_bps, uint32_t packet_bytes,
		       sb_time start)
{
	struct sb_flow *f = sb_flow_create(&sim->flows, src, dst, 0, start, sb_transport_find("cbr"));
	sb_cbr_configure(f, rate_bps, packet_bytes);
	return f;
}

struct sb_flow *tl_rdma_flow(struct sb_sim *sim, const char *transport, uint32_t src, uint32_t dst, uint64_t size,
			     sb_time start)
{
	const struct sb_transport_ops *ops = sb_transport_find(transport);
	assert_non_null(ops);
	struct sb_flow *f = sb_flow_create(&sim->flows, src, dst, size, start, ops);
	f->prio = SB_DEFAULT_PRIO_LOSSLESS;
	f->lossless = 1;
	return f;
}

void tl_single_switch(struct sb_scenario *sc, int hosts, double gbps, uint64_t buffer_bytes)
{
	sb_scenario_defaults(sc);
	sc->topo.type = SB_TOPO_SINGLE;
	sc->topo.hosts = hosts;
	sc->topo.host_rate_gbps = gbps;
	sc->topo.host_delay_us = 1;
	sc->sw.buffer_bytes = (int64_t)buffer_bytes;
	sc->sw.ecn_mode = SB_ECN_OFF;
	sc->run.duration_ms = 10;
	sc->run.sample_interval_us = 0;
	sc->run.check_invariants = true;
}

void tl_build(struct sb_sim *sim, const struct sb_scenario *sc)
{
	struct sb_error err = { "" };
	if (sb_sim_build(sim, sc, &err))
		fail_msg("build: %s", err.msg);
	sim->flows.keep_finished = true;
}

void tl_run_and_check(struct sb_sim *sim)
{
	struct sb_error err = { "" };
	sb_sim_run(sim);
	if (sb_sim_check(sim, &err))
		fail_msg("invariants: %s", err.msg);
}

static void every_fire(void *obj, uint64_t arg)
{
	struct tl_every *e = obj;
	(void)arg;
	e->calls++;
	e->fn(e);
	e->next += e->step;
	if (e->next <= e->to)
		sb_at(&e->sim->net.engine, e->next, every_fire, e, 0);
}

void tl_every_start(struct tl_every *e, struct sb_sim *sim, sb_time from, sb_time to, sb_time step,
		    void (*fn)(struct tl_every *e), void *ctx)
{
	*e = (struct tl_every){ .sim = sim, .next = from, .to = to, .step = step, .fn = fn, .ctx = ctx };
	sb_at(&sim->net.engine, from, every_fire, e, 0);
}

char *tl_write_file(const char *dir, const char *name, const char *text)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *path = malloc(n);
	assert_non_null(path);
	snprintf(path, n, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		fail_msg("cannot write %s", path);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return path;
}

char *tl_precious_file(const char *dir, const char *name)
{
	char *p = tl_write_file(dir, name, TL_PRECIOUS);
	struct timespec t[2] = { { TL_OLD_MTIME, 0 }, { TL_OLD_MTIME, 0 } };
	assert_int_equal(utimensat(AT_FDCWD, p, t, 0), 0);
	return p;
}

void tl_expect_untouched(const char *path)
{
	char *text = tl_slurp(path);
	struct stat st;
	assert_non_null(text);
	assert_string_equal(text, TL_PRECIOUS);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mtim.tv_sec, TL_OLD_MTIME);
	free(text);
}

char tl_group_dir[64];

int tl_group_tmpdir(void **state)
{
	(void)state;
	strcpy(tl_group_dir, "/tmp/sbtest.XXXXXX");
	return mkdtemp(tl_group_dir) ? 0 : -1;
}

int tl_group_rmdir(void **state)
{
	(void)state;
	return rmdir(tl_group_dir);
}

char *tl_path_in(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	assert_non_null(p);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

bool tl_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

size_t tl_count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		fail_msg("cannot open directory %s", dir);
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static char tl_program[4096] = "./build/sharebuf";

void tl_sharebuf_init(const char *argv0)
{
	const char *env = getenv("SHAREBUF");
	if (env && *env) {
		snprintf(tl_program, sizeof(tl_program), "%s", env);
		return;
	}
	const char *slash = strrchr(argv0, '/');
	if (slash) {
		/* BUILD/tests/test_x, or BUILD/tests/realtime/test_x */
		char cand[4096];
		snprintf(cand, sizeof(cand), "%.*s/../sharebuf", (int)(slash - argv0), argv0);
		if (!tl_exists(cand))
			snprintf(cand, sizeof(cand), "%.*s/../../sharebuf", (int)(slash - argv0), argv0);
		if (tl_exists(cand))
			snprintf(tl_program, sizeof(tl_program), "%s", cand);
	}
}

struct tl_cmd tl_sharebuf(const char *args)
{
	char *dir = tl_tmpdir();
	char cmd[16384], outp[4200], errp[4200];
	snprintf(outp, sizeof(outp), "%s/stdout", dir);
	snprintf(errp, sizeof(errp), "%s/stderr", dir);
	/* a program that hangs fails the test (status 124) instead of hanging the suite: some of
	 * the inputs the tests try once made it loop for ever */
	snprintf(cmd, sizeof(cmd), "timeout -k 5 300 '%s' %s >'%s' 2>'%s' </dev/null", tl_program, args, outp, errp);
	int rc = system(cmd);
	struct tl_cmd r = { -1, tl_slurp(outp), tl_slurp(errp) };
	if (rc != -1 && WIFEXITED(rc))
		r.status = WEXITSTATUS(rc);
	tl_rmtree(dir);
	free(dir);
	if (!r.out || !r.err)
		fail_msg("could not capture the output of: %s", cmd);
	return r;
}

const char *tl_sharebuf_path(void) { return tl_program; }

pid_t tl_sharebuf_start(const char *const *argv, const char *out, const char *err)
{
	size_t n = 0;
	while (argv[n])
		n++;
	char **args = calloc(n + 2, sizeof(*args));
	assert_non_null(args);
	args[0] = tl_program;
	for (size_t i = 0; i < n; i++)
		args[i + 1] = (char *)argv[i];
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		fail_msg("fork failed");
	if (pid == 0) {
		/* the signals the tests send, as a program started from a terminal has them: a shell
		 * that runs `make test &` (or nohup) starts it with SIGINT and SIGQUIT ignored, and
		 * sharebuf keeps an ignored signal ignored, so that a test sending SIGINT waited for
		 * a run that never stopped */
		static const int sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP };
		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			signal(sigs[i], SIG_DFL);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		int in = open("/dev/null", O_RDONLY);
		int o = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err ? err : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (in < 0 || o < 0 || e < 0)
			_exit(127);
		dup2(in, STDIN_FILENO);
		dup2(o, STDOUT_FILENO);
		dup2(e, STDERR_FILENO);
		execv(tl_program, args);
		_exit(127);
	}
	free(args);
	return pid;
}

static void tl_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

bool tl_wait_for(const char *path, double seconds)
{
	for (long waited = 0; waited <= (long)(seconds * 1000); waited += 5) {
		if (tl_exists(path))
			return true;
		tl_sleep_ms(5);
	}
	return false;
}

int tl_wait_pid(pid_t pid, double seconds)
{
	int st;
	for (long waited = 0; waited <= (long)(seconds * 1000); waited += 5) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return st;
		if (r < 0)
			fail_msg("waitpid(%d) failed", (int)pid);
		tl_sleep_ms(5);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

void tl_cmd_free(struct tl_cmd *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

char *tl_slurp_in(const char *dir, const char *name)
{
	char *p = tl_path_in(dir, name);
	char *s = tl_slurp(p);
	if (!s)
		fail_msg("missing file %s", p);
	free(p);
	return s;
}

void tl_drop_line(char *s, const char *key)
{
	char *k = strstr(s, key);
	assert_non_null(k);
	char *start = k, *end = strchr(k, '\n');
	while (start > s && start[-1] != '\n')
		start--;
	assert_non_null(end);
	memmove(start, end + 1, strlen(end + 1) + 1);
}

void tl_check_and_free(struct sb_sim *sim, struct sb_scenario *sc)
{
	struct sb_error err = { { 0 } };
	if (sb_sim_check(sim, &err) != 0)
		fail_msg("sb_sim_check: %s", err.msg);
	sb_sim_free(sim);
	sb_scenario_free(sc);
}

struct sb_port *tl_port_to_host(struct sb_sim *sim, uint32_t h)
{
	struct sb_switch *sw = sim->net.switches[0];
	for (uint16_t i = 0; i < sw->node.nports; i++)
		if (sw->node.ports[i].peer->node == &sim->net.hosts[h]->node)
			return &sw->node.ports[i];
	fail_msg("no port to host %u", h);
	return NULL;
}

double tl_rel(double got, double want) { return fabs(got - want) / want; }

json_t *tl_json_load(const char *dir, const char *name)
{
	char *p = tl_path_in(dir, name);
	json_error_t jerr;
	json_t *j = json_load_file(p, 0, &jerr);
	if (!j)
		fail_msg("%s: %s (line %d)", p, jerr.text, jerr.line);
	free(p);
	return j;
}

json_t *tl_json_get(json_t *obj, const char *dotted)
{
	char key[128];
	snprintf(key, sizeof(key), "%s", dotted);
	json_t *cur = obj;
	for (char *save = NULL, *k = strtok_r(key, ".", &save); k; k = strtok_r(NULL, ".", &save)) {
		if (!json_is_object(cur))
			fail_msg("JSON: %s: a parent is not an object", dotted);
		cur = json_object_get(cur, k);
		if (!cur)
			fail_msg("JSON: missing key %s", dotted);
	}
	return cur;
}

double tl_json_num(json_t *obj, const char *dotted)
{
	json_t *v = tl_json_get(obj, dotted);
	if (!json_is_number(v))
		fail_msg("JSON: %s is not a number", dotted);
	return json_number_value(v);
}

long long tl_json_int(json_t *obj, const char *dotted)
{
	json_t *v = tl_json_get(obj, dotted);
	if (!json_is_integer(v))
		fail_msg("JSON: %s is not an integer", dotted);
	return json_integer_value(v);
}

void tl_mmu_start(struct sb_mmu *m, const char *const *kv)
{
	struct sb_error err;
	for (; kv && *kv; kv += 2)
		if (sb_mmu_set_param(m, kv[0], kv[1], &err))
			fail_msg("%s", err.msg);
	if (sb_mmu_start(m, &err))
		fail_msg("%s", err.msg);
}
