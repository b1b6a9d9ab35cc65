"""The scale-out extras stay optional: ``import bg_env`` (and its envs) never imports Ray or
Tianshou."""

from __future__ import annotations

import subprocess
import sys


def test_import_bg_env_without_ray_or_tianshou():
    code = (
        "import sys\n"
        "sys.modules['ray'] = sys.modules['tianshou'] = None  # importing either now fails\n"
        "import bg_env, bg_env.integrations\n"
        "from bg_env import backgammon_v0\n"
        "backgammon_v0.env().reset(seed=0)\n"
        "try:\n"
        "    import bg_env.integrations.rllib\n"
        "except ImportError as e:\n"
        "    print('rllib needs ray:', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "rllib needs ray" in out.stdout
