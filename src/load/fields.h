/*
 * fields.h — strict reading of one field of the load generator's input files (measured.csv,
 * the switch's occupancy.csv and summary.json), so that every value the report takes in is
 * checked for its type, its range and, for a real number, that it is finite.
 *
 * sscanf's %u and %llu take "-1" and wrap it to 2^64 - 1, and %lf takes "nan", "inf" and hex
 * floats: a measured FCT of -1 became a slowdown of 2·10^10, a utilisation of nan vanished
 * from the summary's mean. These accept plain decimal text only.
 */
#ifndef SB_LOAD_FIELDS_H
#define SB_LOAD_FIELDS_H

#include <stdint.h>

/* Digits only (no sign, no space, no exponent), in [lo, hi]: 0, or -1 when it is not. */
int sb_load_field_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);

/* A plain decimal number (digits, '.', an exponent; a sign only in the exponent), finite,
 * in [lo, hi]: 0, or -1 when it is not. */
int sb_load_field_real(const char *s, double lo, double hi, double *out);

/* Split `line` in place at commas into at most `max` fields; returns how many it has (more
 * than `max` when there are too many). */
int sb_load_fields_split(char *line, char **field, int max);

#endif
