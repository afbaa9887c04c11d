#ifndef RAON_CCURL_SHIM_H
#define RAON_CCURL_SHIM_H
#include <curl/curl.h>

// curl_easy_setopt is variadic, which Swift cannot call: one typed wrapper per kind of
// option value RaonMail sets.

static inline CURLcode raon_curl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode raon_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode raon_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode raon_curl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
  return curl_easy_setopt(handle, option, value);
}

typedef size_t (*raon_curl_read_callback)(char *buffer, size_t size, size_t count, void *context);

static inline CURLcode raon_curl_setopt_read_function(CURL *handle, raon_curl_read_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}

static inline CURLcode raon_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode raon_curl_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
  return curl_easy_getinfo(handle, info, value);
}

#endif
