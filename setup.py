"""The wheel's one build step beyond pyproject.toml: the fonts, sheet presets, layouts,
export profiles, printers and example games that a project finds when it has none of its
own are copied from the repository's top into the package (generator/shipped/), as
generator/shipped.py lists them. Nothing is committed twice; nothing is fetched."""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def _shipped():
    spec = importlib.util.spec_from_file_location("_cardgen_shipped",
                                                  HERE / "generator" / "shipped.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildWithData(build_py):
    def run(self):
        super().run()
        shipped = _shipped()
        # An editable install reads them where they are (shipped.root: the repository).
        if not self.dry_run and not getattr(self, "editable_mode", False):
            shipped.copy_into(HERE, Path(self.build_lib) / "generator" / shipped.FOLDER)


setup(cmdclass={"build_py": BuildWithData})
