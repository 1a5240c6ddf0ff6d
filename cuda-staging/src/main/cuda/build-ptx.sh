#!/usr/bin/env bash
# Rebuilds cuda-staging/src/main/resources/org/spdl4j/cuda/normalize.ptx from normalize.cu (needs nvcc + ptxas).
#
# Why the .version rewrite: nvcc 13 stamps its PTX with ISA 9.0, which a CUDA 12.x driver refuses to JIT
# (CUDA_ERROR_UNSUPPORTED_PTX_VERSION). The kernel uses nothing newer than PTX ISA 7.0 (the minimum for sm_80), so
# the header is lowered to 7.0 and ptxas then checks, for sm_80 and sm_90 (H100/H200), that the file is valid
# 7.0 PTX: ptxas rejects any instruction that needs a newer ISA than the header declares.
# compute_80 PTX is JIT-compiled by any driver >= 11.0 for any GPU from Ampere on (A100, H100, H200, ...).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../resources/org/spdl4j/cuda/normalize.ptx"
nvcc -ptx -arch=compute_80 -o "$out" "$here/normalize.cu"
sed -i 's/^\.version [0-9.]*$/.version 7.0/' "$out"
ptxas -arch=sm_80 "$out" -o /dev/null
ptxas -arch=sm_90 "$out" -o /dev/null
echo "wrote $out ($(grep -m1 '^\.version' "$out"), $(grep -m1 '^\.target' "$out"))"
