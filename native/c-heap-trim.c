/*
 * malloc_trim(0) for the server (docs/decisions/034-trim-the-c-heap-when-quiet.md).
 *
 * glibc gives the free pages inside its heap back to the system only when asked: after a large
 * download the socket buffers are freed, but a block still in use near the top of the heap keeps
 * tens of megabytes resident. The server calls trim() after its idle-time collection.
 *
 * A Node-API module. The few Node-API functions it uses are declared here from Node's stable
 * ABI (node_api.h, Node-API version 1), so building it needs a C compiler and nothing else:
 * scripts/build-c-heap-trim.mjs compiles it when the host is built; without a compiler or on a
 * C library without malloc_trim the server runs without it.
 */
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>

typedef struct napi_env__ *napi_env;
typedef struct napi_value__ *napi_value;
typedef struct napi_callback_info__ *napi_callback_info;
typedef int napi_status;
typedef napi_value (*napi_callback)(napi_env env, napi_callback_info info);

extern napi_status napi_create_int32(napi_env env, int32_t value, napi_value *result);
extern napi_status napi_create_function(napi_env env, const char *utf8name, size_t length, napi_callback cb, void *data, napi_value *result);
extern napi_status napi_set_named_property(napi_env env, napi_value object, const char *utf8name, napi_value value);

/* trim(): 1 when memory was given back to the system, 0 when there was none to give */
static napi_value trim(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result = NULL;
  napi_create_int32(env, malloc_trim(0), &result);
  return result;
}

__attribute__((visibility("default"))) napi_value napi_register_module_v1(napi_env env, napi_value exports) {
  napi_value fn = NULL;
  if (napi_create_function(env, "trim", SIZE_MAX, trim, NULL, &fn) != 0) return NULL;
  if (napi_set_named_property(env, exports, "trim", fn) != 0) return NULL;
  return exports;
}

__attribute__((visibility("default"))) int32_t node_api_module_get_api_version_v1(void) { return 1; }
