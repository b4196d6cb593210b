/*
 * The C interface (latchkey.h) used from C, as another language's binding would use it:
 * compiled with gcc as C99 against the installed package (pkg-config --cflags --libs
 * latchkey) by sdks/test/cpp-conformance.test.ts. Not part of the package.
 *
 * Arguments: an unreachable base URL, a public key, a licence, its HWID, a time within it, and
 * the options of an activation request for that key and HWID (a JSON object). Prints one JSON
 * object of what the interface answered, for the runner to check.
 */

#include <latchkey.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char* verify_terms(const char* now) {
  const char* format = "{\"now\": \"%s\"}";
  size_t size = strlen(format) + strlen(now) + 1;
  char* terms = (char*)malloc(size);
  if (terms != NULL) snprintf(terms, size, format, now);
  return terms;
}

int main(int argc, char** argv) {
  char* error = NULL;
  latchkey_client* client;
  latchkey_client* refused;
  char* terms;
  char* offline;
  char* offline_elsewhere;
  char* machine_id;
  char* hwid;
  char* call;
  char* unknown_call;
  char* no_session;
  char* activation;
  char* activation_call;
  int has_refused;

  if (argc != 7) {
    fprintf(stderr, "usage: %s <unreachable base URL> <public key> <licence> <hwid> <now> <activation options>\n",
            argv[0]);
    return 2;
  }
  terms = verify_terms(argv[5]);
  offline = latchkey_verify_offline_license(argv[3], argv[2], argv[4], terms);
  offline_elsewhere = latchkey_verify_offline_license(argv[3], argv[2], "ANOTHER-MACHINE", terms);
  machine_id = latchkey_machine_id(argv[2]);
  activation = latchkey_create_activation_request(argv[2], argv[4], argv[6]);

  refused = latchkey_client_create(argv[1], "lk_live_unused", "not a key", "1.0.0", NULL, &error);
  has_refused = refused == NULL && error != NULL;

  client = latchkey_client_create(argv[1], "lk_live_unused", argv[2], "1.0.0",
                                  "{\"timeout_ms\": 2000, \"retries\": 0}", NULL);
  if (client == NULL || offline == NULL || offline_elsewhere == NULL || machine_id == NULL ||
      activation == NULL) {
    fprintf(stderr, "the C interface answered NULL\n");
    return 1;
  }
  hwid = latchkey_client_hwid(client);
  call = latchkey_client_call(client, "verify", "{\"user_id\": \"00000000-0000-4000-8000-000000000000\"}");
  unknown_call = latchkey_client_call(client, "no_such_call", NULL);
  no_session = latchkey_client_call(client, "heartbeat", NULL);
  /* The options name the same HWID ("hwid", which the call above takes as an argument) and the
   * client pins the same key: the same request. */
  activation_call = latchkey_client_call(client, "create_activation_request", argv[6]);

  printf("{\"version\": \"%s\", \"machineId\": \"%s\", \"hwid\": \"%s\", \"refusedKey\": %s, "
         "\"offline\": %s, \"offlineElsewhere\": %s, \"call\": %s, \"unknownCall\": %s, "
         "\"noSession\": %s, \"activation\": %s, \"activationCall\": %s}\n",
         latchkey_version(), machine_id, hwid, has_refused ? "true" : "false", offline,
         offline_elsewhere, call, unknown_call, no_session, activation, activation_call);

  latchkey_free(error);
  latchkey_free(offline);
  latchkey_free(offline_elsewhere);
  latchkey_free(machine_id);
  latchkey_free(hwid);
  latchkey_free(call);
  latchkey_free(unknown_call);
  latchkey_free(no_session);
  latchkey_free(activation);
  latchkey_free(activation_call);
  free(terms);
  latchkey_client_destroy(client);
  latchkey_client_destroy(NULL);
  return 0;
}
