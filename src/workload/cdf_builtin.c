/*
 * cdf_builtin.c — the distributions of data/cdf/NAME.cdf, compiled in so that `cdf = websearch`
 * works from any directory and no file has to ship next to the binary.
 *
 * These arrays and the data files must say the same thing; tests/workload/test_cdf.c loads every
 * data/cdf/NAME.cdf and compares it point by point with the entry here, so an edit to one
 * without the other fails `make test`. Provenance and means are in the .cdf headers and in
 * docs/workloads.md.
 */
#include "workload/cdf.h"

#include <string.h>

static const struct sb_cdf_point websearch_points[] = {
	{0, 0}, {2000, 0}, {2100, 0.02}, {2500, 0.05}, {6000, 0.1}, {10000, 0.15}, {20000, 0.2},
	{30000, 0.3}, {50000, 0.4}, {80000, 0.53}, {200000, 0.6}, {1000000, 0.7}, {2000000, 0.8},
	{5000000, 0.9}, {10000000, 0.97}, {30000000, 1},
};

static const struct sb_cdf_point datamining_points[] = {
	{100, 0}, {180, 0.085}, {250, 0.14}, {560, 0.33}, {900, 0.47}, {1100, 0.55}, {1870, 0.65},
	{3160, 0.7}, {10000, 0.8}, {100001, 0.874}, {400000, 0.9}, {1850000, 0.95}, {10000000, 0.97},
	{30000000, 0.98}, {100000000, 0.99}, {250000000, 0.995}, {1000000000, 1},
};

static const struct sb_cdf_point hadoop_points[] = {
	{325, 0}, {1177, 0.01728594}, {4264, 0.022426176}, {15443, 0.027658305}, {28000, 0.06},
	{37323, 0.104879491}, {51067, 0.335908276}, {74908, 0.515476971}, {93293, 0.641894623},
	{141819, 0.772500294}, {237853, 0.889446481}, {573344, 0.957208265}, {2076744, 0.965639401},
	{7521945, 0.9687178}, {27244995, 0.974237092}, {98686787, 0.983862831}, {223092956, 1},
};

static const struct sb_cdf_point cache_points[] = {
	{1460, 0}, {1460, 0.35}, {2920, 0.4}, {10220, 0.46}, {18980, 0.5}, {97820, 0.6},
	{194180, 0.7}, {973820, 0.78}, {1946180, 0.8}, {2920000, 0.9}, {3893820, 0.99}, {48666180, 1},
};

static const struct sb_cdf_point websearch_hpcc_points[] = {
	{0, 0}, {10000, 0.15}, {20000, 0.2}, {30000, 0.3}, {50000, 0.4}, {80000, 0.53}, {200000, 0.6},
	{1000000, 0.7}, {2000000, 0.8}, {5000000, 0.9}, {10000000, 0.97}, {30000000, 1},
};

static const struct sb_cdf_point fbhdp_points[] = {
	{0, 0}, {100, 0.01}, {200, 0.02}, {300, 0.05}, {350, 0.15}, {400, 0.2}, {500, 0.3},
	{600, 0.4}, {700, 0.5}, {1000, 0.6}, {2000, 0.67}, {7000, 0.7}, {30000, 0.72}, {50000, 0.82},
	{80000, 0.87}, {120000, 0.9}, {300000, 0.95}, {1000000, 0.975}, {2000000, 0.99},
	{10000000, 1},
};

static const struct sb_cdf_point alistorage_points[] = {
	{0, 0}, {4000, 0.2293}, {8000, 0.6921}, {16000, 0.8061}, {32000, 0.9047}, {64000, 0.9353},
	{128000, 0.9677}, {256000, 0.9753}, {2000000, 1},
};

static const struct sb_cdf_point websearch_dsh_points[] = {
	{8760, 0}, {8760, 0.15}, {18980, 0.2}, {27740, 0.3}, {48180, 0.4}, {77380, 0.53},
	{194180, 0.6}, {973820, 0.7}, {1946180, 0.8}, {4866180, 0.9}, {9733820, 0.97}, {29200000, 1},
};

static const struct sb_cdf_point datamining_dsh_points[] = {
	{1460, 0}, {1460, 0.5}, {2920, 0.6}, {4380, 0.7}, {10220, 0.8}, {389820, 0.9},
	{3076220, 0.95}, {97333820, 0.99}, {973333820, 1},
};

static const struct sb_cdf_point hadoop_dsh_points[] = {
	{1460, 0}, {35040, 0.1}, {43800, 0.2}, {48180, 0.3}, {48180, 0.4}, {73000, 0.5}, {77380, 0.6},
	{97820, 0.7}, {175200, 0.8}, {233600, 0.9}, {292000, 0.95}, {973820, 0.96}, {9733820, 0.97},
	{97333820, 0.99}, {486666180, 1},
};

const struct sb_cdf_builtin sb_cdf_builtins[] = {
	{"websearch", "web search (DCTCP); inet-tub/ns3-datacenter examples/Reverie/websearch.txt",
	 websearch_points, SB_ARRAY_LEN(websearch_points)},
	{"datamining", "data mining; inet-tub/ns3-datacenter examples/ABM/datamining.csv",
	 datamining_points, SB_ARRAY_LEN(datamining_points)},
	{"hadoop", "Hadoop; inet-tub/ns3-datacenter examples/ABM/hadoop.csv",
	 hadoop_points, SB_ARRAY_LEN(hadoop_points)},
	{"cache", "cache; DSH (ICDCS'23) harness examples/DSH/flow-cdf, packets x 1460 B",
	 cache_points, SB_ARRAY_LEN(cache_points)},
	{"websearch_hpcc", "web search; HPCC traffic_gen/WebSearch_distribution.txt",
	 websearch_hpcc_points, SB_ARRAY_LEN(websearch_hpcc_points)},
	{"fbhdp", "Facebook Hadoop; HPCC traffic_gen/FbHdp_distribution.txt",
	 fbhdp_points, SB_ARRAY_LEN(fbhdp_points)},
	{"alistorage", "Alibaba storage 2019; HPCC traffic_gen/AliStorage2019.txt",
	 alistorage_points, SB_ARRAY_LEN(alistorage_points)},
	{"websearch_dsh", "web search; DSH (ICDCS'23) harness examples/DSH/flow-cdf, packets x 1460 B",
	 websearch_dsh_points, SB_ARRAY_LEN(websearch_dsh_points)},
	{"datamining_dsh", "data mining; DSH (ICDCS'23) harness examples/DSH/flow-cdf, packets x 1460 B",
	 datamining_dsh_points, SB_ARRAY_LEN(datamining_dsh_points)},
	{"hadoop_dsh", "Hadoop; DSH (ICDCS'23) harness examples/DSH/flow-cdf, packets x 1460 B",
	 hadoop_dsh_points, SB_ARRAY_LEN(hadoop_dsh_points)},
};

const size_t sb_cdf_nbuiltins = SB_ARRAY_LEN(sb_cdf_builtins);

const struct sb_cdf_builtin *sb_cdf_builtin_find(const char *name)
{
	for (size_t i = 0; i < sb_cdf_nbuiltins; i++)
		if (strcmp(sb_cdf_builtins[i].name, name) == 0)
			return &sb_cdf_builtins[i];
	return NULL;
}
