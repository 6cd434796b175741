"""This machine's network addresses, read from its interfaces (nothing is sent anywhere), and
host names as they arrive in a ``Host`` header.

Used by ``scorekeeper serve --lan`` (which address the phones at the table should open) and by
the app's trusted-host check (a request may name this machine by any of its addresses).
"""

from __future__ import annotations

import ipaddress
import socket
from functools import lru_cache

import ifaddr

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@lru_cache(maxsize=1)
def machine_addresses() -> tuple[Address, ...]:
    """Every address of every interface of this machine (loopback included), read from the
    interfaces themselves (``ifaddr``): no name lookup, no packet."""
    out: list[Address] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            text = ip.ip[0] if isinstance(ip.ip, tuple) else ip.ip
            try:
                address = ipaddress.ip_address(text.split("%", 1)[0])
            except ValueError:
                continue
            if address not in out:
                out.append(address)
    return tuple(out)


def lan_addresses(addresses: tuple[Address, ...] | None = None) -> list[Address]:
    """The addresses another phone on the same Wi-Fi can reach this machine by, best first:
    private IPv4 (192.168.x.x, 10.x.x.x, 172.16-31.x.x), then other IPv4, then unique-local and
    global IPv6. Loopback, link-local and unspecified addresses are left out."""
    found = machine_addresses() if addresses is None else addresses

    def rank(address: Address) -> int:
        if address.version == 4:
            return 0 if address.is_private else 1
        return 2 if address.is_private else 3

    usable = [
        a
        for a in found
        if not (a.is_loopback or a.is_link_local or a.is_unspecified or a.is_multicast)
    ]
    return sorted(usable, key=rank)


def url_host(address: Address | str) -> str:
    """An address as it is written in a URL (IPv6 in brackets)."""
    text = str(address)
    return f"[{text}]" if ":" in text else text


def host_name(host: str) -> str:
    """The name or address in a ``Host`` value, without port and brackets, lower case
    (``"[::1]:5000"`` → ``"::1"``, ``"Example.org:80"`` → ``"example.org"``)."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        return host[1:end] if end > 0 else host
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def as_address(name: str) -> Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


def is_loopback_host(host: str) -> bool:
    """Whether a ``Host`` value names this machine only to itself (127.0.0.0/8, ::1,
    localhost): a link with it cannot be opened by another phone."""
    name = host_name(host)
    if name == "localhost" or name.endswith(".localhost"):
        return True
    address = as_address(name)
    return address is not None and address.is_loopback


@lru_cache(maxsize=1)
def machine_names() -> tuple[str, ...]:
    """This machine's own name, and the ``.local`` name phones may know it by (mDNS)."""
    name = socket.gethostname().strip().lower().rstrip(".")
    if not name:
        return ()
    short = name.split(".", 1)[0]
    return tuple(dict.fromkeys([name, short, f"{short}.local"]))
