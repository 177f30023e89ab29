"""`samsara relay` (docs/online.md "The broker"): Mosquitto with the project's
configuration; the command itself is samsara_host.online.cmd's."""


def add_parser(sub, name, help_text):
    """Register `samsara relay` (cli.py's table)."""
    from samsara_host.online.cmd import add_relay_parser
    add_relay_parser(sub, name, help_text)
