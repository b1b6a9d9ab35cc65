#!/usr/bin/env bash
# Training on a many-core machine with a GPU: one command that checks the
# `device` setting and measures games/minute with 1..15 workers, CPU and CUDA.
#
# Where it runs: a machine whose python3 has torch, numba, numpy, pyyaml, cloudpickle,
# pytest and hypothesis but not the pure-Python packages below, and no network. They travel
# as wheels in .whl/ (git-ignored; made on a machine with pip access, from the repo root):
#
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
#     --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
#     --platform manylinux2014_x86_64 -d .whl gymnasium==1.4.0 pettingzoo==1.27.0 \
#     stable-baselines3==2.9.2 sb3-contrib==2.9.2 farama-notifications==0.0.6
#
# (all five are py3-none-any, so the Python version does not matter; their other needs,
# numpy, cloudpickle, typing-extensions and torch, are there). The project itself is not
# installed: PYTHONPATH holds the repo, and `import agents` registers the opponent specs
# (pubeval, td, ...) that an installed copy would declare as entry points.
#
#   bash benchmarks/device_check.sh            # OUT=folder for the results (else ./device_out)
#   QUICK=1 bash benchmarks/device_check.sh    # tiny sizes: a check that everything runs
#
# Writes to $OUT: log.txt (machine, versions, each part's time and exit status), tests.txt
# (the device tests), bench.txt (benchmarks/bench_train_workers.py), evals.txt (td:2ply and
# td against pubeval, split over processes). Parts have their own time limits, and the
# whole stops starting parts past DEADLINE seconds (default 490), so it ends by about 8.5
# minutes (give the run 540 s). On 16 cores the evaluations run in the background on cores 6-15 while the tests
# and the 1, 2, 4-worker measurements run on cores 0-5; the 8- and 15-worker and CUDA
# measurements come after the evaluations, on every core.

set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
OUT=${OUT:-$PWD/device_out}
mkdir -p "$OUT"
PY=${PY:-python3}
QUICK=${QUICK:-0}
DEADLINE=${DEADLINE:-490}
LIMIT_SCALE=${LIMIT_SCALE:-1}  # QUICK=1: 4 (a busy 2-core machine is slow to start workers)
START=$(date +%s)
LOG=$OUT/log.txt
BENCH=$OUT/bench.txt
EVALS=/tmp/bg_env_evals
rm -rf "$EVALS" && mkdir -p "$EVALS"
: >"$LOG"; : >"$BENCH"

if [ "$QUICK" = 1 ]; then
    # CUDA_DEV=auto: without a GPU the "cuda" rows measure the CPU (and say so)
    TD_GAMES=8; ROLLOUTS=1; LOW="1 2"; HIGH=""; CUDA_DEV=auto; CUDA_MANY=2; EVAL_PROCS=2; EVAL_GAMES=2
    EVAL_BUDGET=300; DEADLINE=${QUICK_DEADLINE:-2400}; LIMIT_SCALE=4
    TESTS=(tests/agents/test_cuda_training.py tests/agents/test_ppo.py)
else
    TD_GAMES=200; ROLLOUTS=2; LOW="1 2 4"; HIGH="8 15"; CUDA_DEV=cuda; CUDA_MANY=8
    EVAL_PROCS=10; EVAL_GAMES=50; EVAL_BUDGET=240
    TESTS=(tests/agents/test_cuda_training.py tests/agents/test_td_workers.py
           tests/agents/test_proc_vec_env.py tests/agents/test_ppo.py)
fi
say() { echo "[$(($(date +%s) - START))s] $*" | tee -a "$LOG"; }

# part NAME SECONDS COMMAND...: run COMMAND with a limit of SECONDS (less if the deadline is
# nearer), its output appended to the file $PART_OUT (default log.txt).
part() {
    local name=$1 limit=$2 left t0 rc
    shift 2
    limit=$((limit * LIMIT_SCALE))
    left=$((DEADLINE - ($(date +%s) - START)))
    if ((left < limit)); then limit=$left; fi
    if ((limit < 10)); then say "SKIP $name: deadline"; return 0; fi
    say "START $name (limit ${limit}s): $*"
    t0=$(date +%s)
    echo "=== $name: $*" >>"${PART_OUT:-$LOG}"
    timeout -k 5 "$limit" "$@" >>"${PART_OUT:-$LOG}" 2>&1
    rc=$?
    say "END $name rc=$rc ($(($(date +%s) - t0))s)$([ $rc = 124 ] && echo ' TIMED OUT')"
}

# ---------------------------------------------------------------- (a) machine and packages
say "machine: $(nproc) CPUs, $(uname -m); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
{ command -v nvidia-smi >/dev/null && nvidia-smi -L || echo "no nvidia-smi"; } 2>&1 | tee -a "$LOG"
versions() {  # python, then each named module's version (or why it does not import)
    $PY - "$@" <<'PYEOF' 2>&1 | tee -a "$LOG"
import importlib, sys
print("python", sys.version.split()[0], end="")
for name in sys.argv[1:]:
    try:
        print(f"  {name} {importlib.import_module(name).__version__}", end="")
    except Exception as exc:  # noqa: BLE001 (reported, not fatal)
        print(f"  {name} MISSING ({type(exc).__name__}: {exc})", end="")
if "torch" in sys.argv[1:]:
    import torch
    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU"
    print(f"  cuda {torch.cuda.is_available()} ({gpu})", end="")
print()
PYEOF
}
versions torch numpy numba yaml cloudpickle
if ls .whl/*.whl >/dev/null 2>&1; then
    part wheels 120 $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir \
        --upgrade --target /tmp/site .whl/*.whl
    export PYTHONPATH=/tmp/site:$PWD
else
    say "no .whl/: using the installed packages"
    export PYTHONPATH=$PWD
fi
versions gymnasium pettingzoo stable_baselines3 sb3_contrib
# the first import compiles the numba kernels once (cached); later processes reuse them
part "warm-up: eval via python -m agents.cli" 200 $PY -m agents.cli eval td pubeval --games 2 --seed 1 --quiet
part "opponent spec without importing agents: needs the installed entry points, so rc=1 is expected here" 60 $PY -c \
    'import gymnasium, bg_env; e = gymnasium.make("bg_env/Backgammon-v0", opponent="pubeval"); e.reset(seed=0); print("ok")'

FG=(); BG_CORE=""
if command -v taskset >/dev/null && (($(nproc) >= 16)); then
    FG=(taskset -c 0-5); BG_CORE=6
fi

# ---------------------------------------------------------------- (d) evaluations, background
# `bg-env eval` has no workers option: each process plays EVAL_GAMES games of td and then of
# td:2ply against pubeval, for two seeds (2026 + 2i, 2027 + 2i), all on one core.
eval_chain() {
    local i=$1 s
    for agent in td td:2ply; do
        for s in $((2026 + 2 * i)) $((2027 + 2 * i)); do
            $PY -m agents.cli eval "$agent" pubeval --games "$EVAL_GAMES" --seed "$s" --quiet \
                --json "$EVALS/${agent/:/-}_$s.json" >>"$EVALS/chain_$i.txt" 2>&1
        done
    done
}
EVAL_PIDS=()
say "START evals: $EVAL_PROCS processes x 2 seeds x $EVAL_GAMES games, td then td:2ply vs pubeval (limit ${EVAL_BUDGET}s)"
for ((i = 0; i < EVAL_PROCS; i++)); do
    pin=(); [ -n "$BG_CORE" ] && pin=(taskset -c $((BG_CORE + i)))
    export -f eval_chain; export PY EVAL_GAMES EVALS
    timeout -k 5 "$EVAL_BUDGET" "${pin[@]}" bash -c "eval_chain $i" &
    EVAL_PIDS+=($!)
done
EVAL_T0=$(($(date +%s) - START))

# ---------------------------------------------------------------- (b) the device tests
PART_OUT=$OUT/tests.txt part tests 200 "${FG[@]}" $PY -m pytest -p no:cacheprovider -q -rs \
    "${TESTS[@]}" -k "gpu or cuda or device or worker or machine"

# ---------------------------------------------------------------- (c) games per minute
bench() { PART_OUT=$BENCH part "bench $*" "$1" "${FG_NOW[@]}" $PY benchmarks/bench_train_workers.py "${@:2}"; }
FG_NOW=("${FG[@]}")
bench 120 --workers $LOW --rollouts 0 --td --td-games $TD_GAMES
bench 180 --workers $LOW --rollouts $ROLLOUTS
say "waiting for the evaluations (started ${EVAL_T0}s, limit ${EVAL_BUDGET}s)"
for pid in "${EVAL_PIDS[@]}"; do wait "$pid"; done
say "END evals"
FG_NOW=()
[ -n "$HIGH" ] && bench 60 --workers $HIGH --rollouts 0 --td --td-games $TD_GAMES
[ -n "$HIGH" ] && bench 75 --workers $HIGH --rollouts $ROLLOUTS
bench 45 --workers 1 --rollouts 0 --td --td-games $TD_GAMES --device $CUDA_DEV
bench 60 --workers 1 --rollouts $ROLLOUTS --device $CUDA_DEV
bench 30 --workers $CUDA_MANY --rollouts 0 --td --td-games $TD_GAMES --device $CUDA_DEV
bench 45 --workers $CUDA_MANY --rollouts $ROLLOUTS --device $CUDA_DEV

# ---------------------------------------------------------------- evaluations' summary
$PY - "$EVALS" >"$OUT/evals.txt" 2>&1 <<'EOF'
import glob, json, math, os, sys

folder = sys.argv[1]
for agent in ("td", "td-2ply"):
    parts = sorted(glob.glob(os.path.join(folder, f"{agent}_*.json")))
    stats = [json.load(open(p)) for p in parts]
    n = sum(s["games"] for s in stats)
    if not n:
        print(f"{agent}: no part finished")
        continue
    ppg = sum(s["ppg"] * s["games"] for s in stats) / n
    ci = math.sqrt(sum((s["ppg_ci95"] * s["games"]) ** 2 for s in stats)) / n
    wins = sum(s["wins"] for s in stats) / n
    seeds = [int(p.rsplit("_", 1)[1][:-5]) for p in parts]
    print(f"{agent.replace('-', ':')} vs pubeval: {n} games in {len(stats)} parts "
          f"(seeds {seeds}): win {wins:.1%}, ppg {ppg:+.3f} +- {ci:.3f} (95%)")
print()
for p in sorted(glob.glob(os.path.join(folder, "chain_*.txt"))):
    print(f"--- {os.path.basename(p)}")
    print(open(p).read())
EOF
say "done; results in $OUT"
