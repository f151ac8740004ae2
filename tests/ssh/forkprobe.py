"""Run as a session's program by the preload tests: says what it was given, as JSON."""

import json
import os
import random
import sys

import textual.constants

json.dump(
    {
        "env": dict(os.environ),
        "cwd": os.getcwd(),
        "random": random.random(),
        "driver": textual.constants.DRIVER,
        "leader": os.getsid(0) == os.getpid(),
        "stdin": sys.stdin.read(),
    },
    sys.stdout,
)
sys.exit(3)
