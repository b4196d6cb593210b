"""What the client API answers, as values: the closed list of codes and the result mapping."""

from enum import Enum
from typing import Any, Dict, Iterator, Mapping, Union


class ResultCode(str, Enum):
    """The closed list of codes an answer carries. ``success`` is true exactly when it is ``OK``."""

    OK = "OK"
    INVALID_CREDENTIALS = "INVALID_CREDENTIALS"
    ACCOUNT_DISABLED = "ACCOUNT_DISABLED"
    ACCOUNT_EXPIRED = "ACCOUNT_EXPIRED"
    VERSION_MISMATCH = "VERSION_MISMATCH"
    HWID_MISMATCH = "HWID_MISMATCH"
    BLACKLISTED = "BLACKLISTED"
    USERNAME_TAKEN = "USERNAME_TAKEN"
    APP_DISABLED = "APP_DISABLED"
    USER_NOT_FOUND = "USER_NOT_FOUND"
    SESSION_INVALID = "SESSION_INVALID"
    LICENSE_REQUIRED = "LICENSE_REQUIRED"
    LICENSE_INVALID = "LICENSE_INVALID"
    LICENSE_USED = "LICENSE_USED"
    LICENSE_BANNED = "LICENSE_BANNED"
    LICENSE_EXPIRED = "LICENSE_EXPIRED"
    NO_ACTIVE_SUBSCRIPTION = "NO_ACTIVE_SUBSCRIPTION"
    ENTITLEMENTS_MISSING = "ENTITLEMENTS_MISSING"
    RESET_NOT_ALLOWED = "RESET_NOT_ALLOWED"
    RESET_COOLDOWN = "RESET_COOLDOWN"
    DEVICE_NOT_FOUND = "DEVICE_NOT_FOUND"
    HWID_REQUIRED = "HWID_REQUIRED"
    VARIABLE_NOT_FOUND = "VARIABLE_NOT_FOUND"
    VARIABLE_READ_ONLY = "VARIABLE_READ_ONLY"
    VARIABLE_LIMIT_REACHED = "VARIABLE_LIMIT_REACHED"
    FILE_NOT_FOUND = "FILE_NOT_FOUND"
    METER_NOT_FOUND = "METER_NOT_FOUND"
    METER_EXHAUSTED = "METER_EXHAUSTED"
    UPDATES_EXPIRED = "UPDATES_EXPIRED"
    NO_SEAT_AVAILABLE = "NO_SEAT_AVAILABLE"
    BORROW_NOT_ALLOWED = "BORROW_NOT_ALLOWED"
    TRIAL_UNAVAILABLE = "TRIAL_UNAVAILABLE"
    TRIAL_EXPIRED = "TRIAL_EXPIRED"
    TRIAL_USED = "TRIAL_USED"
    MAIL_UNAVAILABLE = "MAIL_UNAVAILABLE"
    EMAIL_NOT_VERIFIED = "EMAIL_NOT_VERIFIED"
    INVALID_REQUEST = "INVALID_REQUEST"
    INVALID_API_KEY = "INVALID_API_KEY"
    RATE_LIMITED = "RATE_LIMITED"

    def __str__(self) -> str:
        return self.value


def code_of(value: str) -> Union[ResultCode, str]:
    """The enum member of a code; a code newer than this library stays its plain string."""
    try:
        return ResultCode(value)
    except ValueError:
        return value


class Result(Mapping[str, Any]):
    """
    A call's outcome: ``success``, ``code`` (a ``ResultCode``) and ``message``, plus the answer's
    own fields exactly as the wire names them (``user_id``, ``session_token``...), read by key
    (``result["user_id"]``, ``result.get("session_token")``) or by attribute
    (``result.user_id``). A ``RATE_LIMITED`` answer adds ``retry_after_seconds`` when the server
    said when to try again; a download adds ``path``, where the checked file now is. An answer
    with the user's ``entitlements`` (login, register, redeem, verify) always has ``meters``,
    where the user's usage meters stand (``name``, ``allowance``, ``used``, ``remaining``,
    ``overage``, ``resets_at``): an empty list for a user without any. A login refused with
    ``NO_SEAT_AVAILABLE`` has ``next_free_at``, when the first seat leased to the user's other
    computers lapses.
    """

    __slots__ = ("_fields",)

    def __init__(self, fields: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_fields", dict(fields))

    @property
    def success(self) -> bool:
        return bool(self._fields.get("success"))

    @property
    def code(self) -> Union[ResultCode, str]:
        return self._fields["code"]

    @property
    def message(self) -> str:
        return self._fields.get("message", "")

    def __getattr__(self, name: str) -> Any:
        fields = object.__getattribute__(self, "_fields")
        if name in fields:
            return fields[name]
        raise AttributeError(f"this result has no field {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a result is read-only")

    def __getitem__(self, key: str) -> Any:
        return self._fields[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def to_dict(self) -> Dict[str, Any]:
        """The fields as a plain dictionary (codes as their strings), ready for ``json.dumps``."""
        return {
            key: (value.value if isinstance(value, Enum) else value)
            for key, value in self._fields.items()
        }

    def __repr__(self) -> str:
        return f"Result({self.to_dict()!r})"
