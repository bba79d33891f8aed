# Flatten a sharebuf summary.json (one "key": value per line, nested objects) into
# "path value" lines, e.g. "pfc.paused_time_us.total 48765.6". POSIX awk; the file is written by
# summary_json() with one member per line, which is all this relies on.
{
	line = $0
	gsub(/^[ \t]+|[ \t,]+$/, "", line)
	if (line ~ /^}/) { if (depth > 0) depth--; next }
	if (line !~ /^"/) next
	key = line; sub(/^"/, "", key); sub(/".*/, "", key)
	val = line; sub(/^"[^"]*":[ \t]*/, "", val)
	if (val == "{") { stack[++depth] = key; next }
	path = ""
	for (i = 1; i <= depth; i++) path = path stack[i] "."
	gsub(/"/, "", val)
	print path key, val
}
