"""
The Latchkey client: every call of the v1 client API, each answer's Ed25519 signature, nonce
and time checked before it is read; offline licences verified without the network, and the
activation requests that get them for a machine that never reaches the server; a heartbeat
loop; a machine id. Ed25519 comes from PyNaCl (``pip install "latchkey[nacl]"``).
"""

from .activation_request import create_activation_request
from .answer_signature import check_answer_signature
from .client_errors import (
    SIGNATURE_ERROR_REASONS,
    TRANSPORT_ERROR_REASONS,
    LatchkeyError,
    SignatureError,
    TransportError,
)
from .latchkey_client import ClientSession, LatchkeyClient
from .machine_id import hash_machine_id, read_raw_machine_id
from .offline_license import OfflineLicenseCheck, OfflineLicenseCode, verify_offline_license
from .result_types import Result, ResultCode

__version__ = "0.1.0"

__all__ = [
    "SIGNATURE_ERROR_REASONS",
    "TRANSPORT_ERROR_REASONS",
    "ClientSession",
    "LatchkeyClient",
    "LatchkeyError",
    "OfflineLicenseCheck",
    "OfflineLicenseCode",
    "Result",
    "ResultCode",
    "SignatureError",
    "TransportError",
    "check_answer_signature",
    "create_activation_request",
    "hash_machine_id",
    "read_raw_machine_id",
    "verify_offline_license",
]
