#!/bin/sh
# Install the Debian packages sharebuf needs to build and test, plus any named on the command
# line (experiments add gnuplot-nox for their plots); iproute2, ethtool and iperf3 are the testbed's
# (docs/testbed.md). Open MPI (openmpi-bin, libopenmpi-dev) is
# among them so that `sharebuf sweep --mpi` is built and tested (docs/sweep.md). Idempotent and quiet when everything is
# present. Needs root (or sudo) only when something is missing.
set -e
PKGS="build-essential pkg-config libconfig-dev libjansson-dev libcmocka-dev nettle-dev openmpi-bin libopenmpi-dev iproute2 ethtool iperf3 $*"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
