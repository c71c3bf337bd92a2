"""The `registry` console script: `registry scan` runs without building the web app, so it starts in
a fraction of the time (docs/scan.md#speed); every other command goes to the Flask CLI (cli.py)."""
import sys


def main():
    """Entry point of the `registry` console script."""
    if sys.argv[1:2] == ["scan"]:
        from .scan.command import scan_command
        return scan_command.main(sys.argv[2:], prog_name="registry scan")
    from .cli import main as flask_cli
    return flask_cli()
