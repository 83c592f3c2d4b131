"""Write docs/parameters.md from the models' declarations (tcpfade._params); tests/test_one_engine.py checks that
the committed page is current."""

from pathlib import Path

from tcpfade._params import all_models, render

if __name__ == "__main__":
    (Path(__file__).resolve().parent / "parameters.md").write_text(render(all_models()))
