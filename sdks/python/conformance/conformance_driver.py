"""
The Python SDK's side of the conformance run (sdks/test/python-conformance.test.ts): one
long-lived process that performs what the TypeScript runner asks through the INSTALLED
``latchkey`` package, one JSON request per line on stdin, one JSON answer per line on stdout.
The runner keeps the scenarios, the owner's actions, the hostile proxy and every expectation;
this file only calls the SDK and reports what it answered or raised. It lives outside the
package: a vendor's installation never holds it.
"""

import json
import re
import secrets
import sys
import time
import traceback
import urllib.error
import urllib.request
from datetime import datetime, timezone

import latchkey

_CAMEL_HUMP = re.compile(r"(?<!^)(?=[A-Z])")


def snake_case(name):
    return _CAMEL_HUMP.sub("_", name).lower()


def moment_of(value):
    """An ISO time from the runner (already resolved) as an aware datetime."""
    if value is None:
        return None
    text = value[:-1] + "+00:00" if value.endswith("Z") else value
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def plain(value):
    """What the SDK answered, as JSON."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    return value


class Driver:
    def __init__(self):
        self.client = None
        # A scenario's other clients (other computers), by name.
        self.others = {}
        self.revocations = []
        self.heartbeat_errors = []

    def info(self, _request):
        from importlib.metadata import files, requires

        return {
            "file": latchkey.__file__,
            "version": latchkey.__version__,
            "resultCodes": [code.value for code in latchkey.ResultCode],
            "offlineLicenseCodes": [code.value for code in latchkey.OfflineLicenseCode],
            "signatureErrorReasons": list(latchkey.SIGNATURE_ERROR_REASONS),
            "transportErrorReasons": list(latchkey.TRANSPORT_ERROR_REASONS),
            "installedFiles": [str(path) for path in files("latchkey") or []],
            "requires": requires("latchkey") or [],
        }

    def signature_vector(self, request):
        return latchkey.check_answer_signature(
            request["publicKey"],
            timestamp=request["timestamp"],
            signature=request["signature"],
            nonce=request["nonce"],
            body=request["body"],
            now=request["now"],
        )

    def offline_vector(self, request):
        return latchkey.verify_offline_license(
            request["license"],
            public_key=request["publicKey"],
            hwid=request["hwid"],
            application_id=request.get("applicationId"),
            now=moment_of(request["now"]),
            last_seen_at=moment_of(request.get("lastSeenAt")),
        ).to_dict()

    def machine_id_vector(self, request):
        return latchkey.hash_machine_id(request["rawMachineId"], request["publicKey"])

    def activation_request_vector(self, request):
        try:
            return {
                "text": latchkey.create_activation_request(
                    request["publicKey"],
                    request["hwid"],
                    license_key=request.get("licenseKey"),
                    username=request.get("username"),
                    device_name=request.get("deviceName"),
                    encrypt=request.get("encrypt", False),
                    nonce=request.get("nonce"),
                    now=moment_of(request.get("now")),
                )
            }
        except ValueError as error:
            return {"refused": str(error)}

    def this_machine(self, request):
        client = latchkey.LatchkeyClient(
            request["baseUrl"], "lk_live_unused", request["publicKey"], "1.0.0"
        )
        raw = latchkey.read_raw_machine_id()
        return {
            "machineId": client.machine_id(),
            "hashedRaw": latchkey.hash_machine_id(raw, request["publicKey"]),
            "raw": raw,
            "hwid": client.hwid,
        }

    def stop_all(self):
        for client in [self.client, *self.others.values()]:
            if client is not None:
                client.stop_heartbeat()

    def construct(self, request):
        """With ``client``, one of the scenario's other clients; else the scenario's own, anew."""
        options = request["options"]
        client = latchkey.LatchkeyClient(
            options["baseUrl"],
            options["apiKey"],
            options["publicKey"],
            options["version"],
            timeout=options["timeoutMs"] / 1000,
            proxy=options.get("proxy"),
            hwid=options["hwid"],
        )
        name = request.get("client")
        if name is not None:
            if name in self.others:
                self.others[name].stop_heartbeat()
            self.others[name] = client
            return {"hwid": client.hwid}
        self.stop_all()
        self.others = {}
        self.revocations = []
        self.heartbeat_errors = []
        self.client = client
        return {"hwid": self.client.hwid}

    def call(self, request):
        name = snake_case(request["call"])
        arguments = {snake_case(key): value for key, value in request.get("input", {}).items()}
        caller = self.others[request["client"]] if "client" in request else self.client
        started = time.monotonic()
        try:
            value = self.invoke(name, arguments, caller)
            outcome = {"value": plain(value)}
        except (latchkey.SignatureError, latchkey.TransportError) as error:
            outcome = {
                "error": {
                    "type": type(error).__name__,
                    "reason": error.reason,
                    "message": str(error),
                }
            }
        outcome["elapsedMs"] = (time.monotonic() - started) * 1000
        return outcome

    def invoke(self, name, arguments, client=None):
        client = client if client is not None else self.client
        if name == "verify_offline_license":
            return client.verify_offline_license(
                arguments["license"],
                hwid=arguments.get("hwid"),
                application_id=arguments.get("application_id"),
                now=moment_of(arguments.get("now")),
                last_seen_at=moment_of(arguments.get("last_seen_at")),
            )
        if name == "check_for_update":
            return client.check_for_update(arguments["answer"])
        if name == "start_heartbeat":
            client.start_heartbeat(
                interval=arguments.get("interval_ms", 30000) / 1000,
                on_revoked=self.revocations.append,
                on_error=self.heartbeat_errors.append,
            )
            return None
        return getattr(client, name)(**arguments)

    # The SDK overhead benchmark (bench/sdk-overhead.mjs): `count` calls one after another,
    # through the SDK, then as a plain HTTP request the way a program without the SDK would
    # send it (urllib, a fresh nonce, the answer read and parsed, its signature not checked).
    def time_calls(self, request):
        name = snake_case(request["call"])
        arguments = {snake_case(key): value for key, value in request.get("input", {}).items()}
        started = time.perf_counter()
        value = None
        for _ in range(request["count"]):
            value = self.invoke(name, arguments)
        return {"elapsedMs": (time.perf_counter() - started) * 1000, "value": plain(value)}

    def time_raw_calls(self, request):
        body = json.dumps(request["body"]).encode("utf-8")
        started = time.perf_counter()
        answer = None
        for _ in range(request["count"]):
            outgoing = urllib.request.Request(
                request["url"],
                data=body,
                method="POST",
                headers={
                    "Content-Type": "application/json",
                    "X-API-Key": request["apiKey"],
                    "X-Request-Nonce": secrets.token_hex(16),
                },
            )
            try:
                with urllib.request.urlopen(outgoing, timeout=30) as response:
                    answer = json.loads(response.read())
            except urllib.error.HTTPError as error:
                answer = json.loads(error.read())
        return {"elapsedMs": (time.perf_counter() - started) * 1000, "value": answer}

    def heartbeat_state(self, _request):
        return {
            "revocations": [plain(revocation) for revocation in self.revocations],
            "errors": [repr(error) for error in self.heartbeat_errors],
        }

    def dispose(self, _request):
        self.stop_all()
        self.client = None
        self.others = {}
        return None


def main():
    driver = Driver()
    operations = {
        "info": driver.info,
        "signatureVector": driver.signature_vector,
        "offlineVector": driver.offline_vector,
        "machineIdVector": driver.machine_id_vector,
        "activationRequestVector": driver.activation_request_vector,
        "thisMachine": driver.this_machine,
        "construct": driver.construct,
        "call": driver.call,
        "timeCalls": driver.time_calls,
        "timeRawCalls": driver.time_raw_calls,
        "heartbeatState": driver.heartbeat_state,
        "dispose": driver.dispose,
    }
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            answer = {"id": request["id"], "result": operations[request["op"]](request)}
        except Exception:
            # A failure of the driver or an exception the SDK should not raise: the runner
            # fails the step with the whole traceback.
            answer = {"id": request["id"], "failure": traceback.format_exc()}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
