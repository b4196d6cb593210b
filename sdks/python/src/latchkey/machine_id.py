"""A stable per-machine identifier, hashed with the application's identity."""

import hashlib
import re
import socket
import subprocess
import sys
from typing import Optional

#: Where Linux (and most BSDs with D-Bus) keep the machine's identifier, the first found.
_MACHINE_ID_FILES = ("/etc/machine-id", "/var/lib/dbus/machine-id")


def hash_machine_id(raw_machine_id: str, public_key_hex: str) -> str:
    """
    The machine id a program sends as its HWID: SHA-256 (hex) of
    ``latchkey-machine-id-v1.{public key, lower-case hex}.{raw id, trimmed}``. Hashed with the
    application's identity so no server, and no two vendors, see the machine's own identifier
    or can match one machine across applications; the same in every Latchkey SDK.
    """
    text = f"latchkey-machine-id-v1.{public_key_hex.lower()}.{raw_machine_id.strip()}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_raw_machine_id() -> str:
    """
    This machine's own identifier: Windows' ``MachineGuid``, macOS's ``IOPlatformUUID``,
    Linux's ``/etc/machine-id``; where none can be read, the host name stands in (less stable:
    it can be renamed). Stable across reboots and program updates.
    """
    return _read_platform_machine_id() or f"host:{socket.gethostname()}"


def _read_platform_machine_id() -> Optional[str]:
    try:
        if sys.platform == "win32":
            import winreg

            # KEY_WOW64_64KEY: a 32-bit Python on 64-bit Windows would otherwise read the
            # redirected view. The registry is read directly: no console window flashes up.
            with winreg.OpenKey(
                winreg.HKEY_LOCAL_MACHINE,
                r"SOFTWARE\Microsoft\Cryptography",
                0,
                winreg.KEY_READ | winreg.KEY_WOW64_64KEY,
            ) as key:
                value, _ = winreg.QueryValueEx(key, "MachineGuid")
            return str(value) if value else None
        if sys.platform == "darwin":
            output = subprocess.run(
                ["ioreg", "-rd1", "-c", "IOPlatformExpertDevice"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                timeout=5,
                check=False,
                universal_newlines=True,
            ).stdout
            found = re.search(r'"IOPlatformUUID" = "([^"]+)"', output)
            return found.group(1) if found else None
    except (OSError, subprocess.SubprocessError):
        return None
    for path in _MACHINE_ID_FILES:
        try:
            with open(path, encoding="utf-8") as file:
                machine_id = file.read().strip()
        except OSError:
            continue  # Not on this system: the next place.
        if machine_id:
            return machine_id
    return None
