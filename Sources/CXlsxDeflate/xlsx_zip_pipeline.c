// Deflating a workbook's parts on a thread of their own while libxlsxwriter writes the next.
//
// libxlsxwriter saves a workbook part by part: it writes a part's XML to a temporary file,
// then copies it into the ZIP (zipOpenNewFileInZip4_64, zipWriteInFileInZip in 16 KB
// pieces, zipCloseFileInZip), deflating as it goes, and the next part waits for that. The
// calls below take those three calls' arguments and hand them, in order, to a thread of the
// ZIP's own that makes the real calls, so one core deflates part N while the other writes
// part N+1's XML (bench/PROFILING.md, "Round four, session 5"). The ZIP is the same: the
// same calls with the same bytes in the same order, on another thread. What is queued is
// bounded (a maker ahead by more than `queue_limit` bytes waits), so a million-row sheet
// is not held in memory.
//
// A failure of a real call is kept, the thread stops, and every later call returns it: the
// next one libxlsxwriter makes, or zipClose at the latest, so the save fails as it would
// have (with the failing call's errno). As xlsx_deflate.c, this relies on Debian's
// libxlsxwriter calling the shared libminizip; where it carries its own minizip, these are
// never called and saving is as before.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "xlsx_deflate.h"

// minizip's zip_fileinfo (zip.h): a tm_zip of six ints, then three unsigned longs.
typedef struct {
  int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year;
  unsigned long dos_date, internal_fa, external_fa;
} part_info;

typedef int (*open_part_fn)(
    void *, const char *, const void *, const void *, unsigned, const void *, unsigned, const char *, int, int,
    int, int, int, int, const char *, unsigned long, unsigned long, unsigned long, int);
typedef int (*write_fn)(void *, const void *, unsigned);
typedef int (*close_part_fn)(void *);
typedef int (*close_zip_fn)(void *, const char *);

enum { zip_ok = 0, zip_param_error = -102, zip_internal_error = -104 };
enum step_kind { step_open, step_write, step_close };

// One call to make on the ZIP's thread.
typedef struct step {
  enum step_kind kind;
  struct step *next;
  // step_open: the part's name and how it is stored (libxlsxwriter passes no extra field,
  // comment or password; a call with one is made at once, not queued).
  char *name;
  part_info info;
  int has_info, method, level, raw, window_bits, mem_level, strategy, zip64;
  unsigned long crc_for_crypting, version_made_by, flag_base;
  // step_write: the bytes.
  size_t length;
  unsigned char data[];
} step;

// A ZIP being saved: its queue of calls and the thread making them.
typedef struct pipeline {
  void *zip;
  struct pipeline *next;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  step *head, *tail;
  size_t queued;
  int closing;   // zipClose was called: the thread ends once the queue is empty
  int finished;  // the thread has ended
  int failure;   // the first real call's error (zip_ok: none)
  int failure_errno;
} pipeline;

static const size_t queue_limit = 32u << 20;
static atomic_int enabled = 1;
static atomic_long parts_pipelined = 0;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pipeline *registry = NULL;

void raon_xlsx_set_pipelined(int on) { atomic_store(&enabled, on != 0); }

long raon_xlsx_parts_pipelined(void) { return atomic_load(&parts_pipelined); }

static void *next_symbol(const char *name) { return dlsym(RTLD_NEXT, name); }

static pipeline *find(void *zip) {
  pthread_mutex_lock(&registry_lock);
  pipeline *p = registry;
  while (p != NULL && p->zip != zip) p = p->next;
  pthread_mutex_unlock(&registry_lock);
  return p;
}

static void forget(pipeline *gone) {
  pthread_mutex_lock(&registry_lock);
  for (pipeline **p = &registry; *p != NULL; p = &(*p)->next) {
    if (*p == gone) {
      *p = gone->next;
      break;
    }
  }
  pthread_mutex_unlock(&registry_lock);
}

static int make_call(void *zip, const step *s) {
  switch (s->kind) {
  case step_open: {
    open_part_fn open_part = (open_part_fn)next_symbol("zipOpenNewFileInZip4_64");
    if (open_part == NULL) return zip_internal_error;
    return open_part(
        zip, s->name, s->has_info ? &s->info : NULL, NULL, 0, NULL, 0, NULL, s->method, s->level, s->raw,
        s->window_bits, s->mem_level, s->strategy, NULL, s->crc_for_crypting, s->version_made_by, s->flag_base,
        s->zip64);
  }
  case step_write: {
    write_fn write = (write_fn)next_symbol("zipWriteInFileInZip");
    if (write == NULL) return zip_internal_error;
    int code = write(zip, s->data, (unsigned)s->length);
    return code < 0 ? code : zip_ok;
  }
  case step_close: {
    close_part_fn close_part = (close_part_fn)next_symbol("zipCloseFileInZip");
    return close_part == NULL ? zip_internal_error : close_part(zip);
  }
  }
  return zip_internal_error;
}

static void *run(void *argument) {
  pipeline *p = argument;
  pthread_mutex_lock(&p->lock);
  for (;;) {
    while (p->head == NULL && !p->closing) pthread_cond_wait(&p->changed, &p->lock);
    step *s = p->head;
    if (s == NULL) break;  // closing, and nothing left
    pthread_mutex_unlock(&p->lock);
    errno = 0;
    int code = make_call(p->zip, s);
    int saved_errno = errno;
    pthread_mutex_lock(&p->lock);
    p->head = s->next;
    if (p->head == NULL) p->tail = NULL;
    p->queued -= s->length;
    free(s->name);
    free(s);
    if (code != zip_ok) {
      p->failure = code;
      p->failure_errno = saved_errno;
      // What is left is never written.
      while (p->head != NULL) {
        step *dropped = p->head;
        p->head = dropped->next;
        free(dropped->name);
        free(dropped);
      }
      p->tail = NULL;
      p->queued = 0;
      break;
    }
    pthread_cond_broadcast(&p->changed);
  }
  p->finished = 1;
  pthread_cond_broadcast(&p->changed);
  pthread_mutex_unlock(&p->lock);
  return NULL;
}

// The pipeline of `zip`, started at its first part; NULL when calls go straight through.
static pipeline *start(void *zip) {
  pipeline *p = find(zip);
  if (p != NULL || !atomic_load(&enabled)) return p;
  p = calloc(1, sizeof *p);
  if (p == NULL) return NULL;
  p->zip = zip;
  pthread_mutex_init(&p->lock, NULL);
  pthread_cond_init(&p->changed, NULL);
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  int started = pthread_create(&thread, &attributes, run, p);
  pthread_attr_destroy(&attributes);
  if (started != 0) {
    free(p);
    return NULL;
  }
  pthread_mutex_lock(&registry_lock);
  p->next = registry;
  registry = p;
  pthread_mutex_unlock(&registry_lock);
  return p;
}

// The error a caller sees now: the thread's failure, with its errno.
static int failure_locked(pipeline *p) {
  if (p->failure != zip_ok) errno = p->failure_errno;
  return p->failure;
}

// Queues `s` (taking it), waiting while too much is queued; the failure so far, if any.
static int enqueue(pipeline *p, step *s) {
  pthread_mutex_lock(&p->lock);
  while (p->failure == zip_ok && !p->finished && p->queued > queue_limit) pthread_cond_wait(&p->changed, &p->lock);
  int code = failure_locked(p);
  if (code != zip_ok || p->finished) {
    pthread_mutex_unlock(&p->lock);
    free(s->name);
    free(s);
    return code != zip_ok ? code : zip_internal_error;
  }
  if (p->tail != NULL) p->tail->next = s; else p->head = s;
  p->tail = s;
  p->queued += s->length;
  pthread_cond_broadcast(&p->changed);
  pthread_mutex_unlock(&p->lock);
  return zip_ok;
}

// Called by the process's definition of zipOpenNewFileInZip4_64 (xlsx_deflate.c), with
// the level it chose.
int raon_xlsx_open_part(
    void *file, const char *filename, const void *zipfi, const void *extrafield_local,
    unsigned size_extrafield_local, const void *extrafield_global, unsigned size_extrafield_global,
    const char *comment, int method, int level, int raw, int window_bits, int mem_level, int strategy,
    const char *password, unsigned long crc_for_crypting, unsigned long version_made_by,
    unsigned long flag_base, int zip64) {
  int plain = extrafield_local == NULL && extrafield_global == NULL && comment == NULL && password == NULL &&
    filename != NULL;
  pipeline *p = plain ? start(file) : NULL;
  if (p == NULL) {
    if (find(file) != NULL) return zip_param_error;  // never from libxlsxwriter: see `plain`
    open_part_fn next = (open_part_fn)next_symbol("zipOpenNewFileInZip4_64");
    if (next == NULL) return zip_internal_error;
    return next(
        file, filename, zipfi, extrafield_local, size_extrafield_local, extrafield_global, size_extrafield_global,
        comment, method, level, raw, window_bits, mem_level, strategy, password, crc_for_crypting,
        version_made_by, flag_base, zip64);
  }
  step *s = calloc(1, sizeof *s);
  if (s == NULL) return zip_internal_error;
  s->kind = step_open;
  s->name = strdup(filename);
  if (s->name == NULL) {
    free(s);
    return zip_internal_error;
  }
  if (zipfi != NULL) {
    memcpy(&s->info, zipfi, sizeof s->info);
    s->has_info = 1;
  }
  s->method = method;
  s->level = level;
  s->raw = raw;
  s->window_bits = window_bits;
  s->mem_level = mem_level;
  s->strategy = strategy;
  s->crc_for_crypting = crc_for_crypting;
  s->version_made_by = version_made_by;
  s->flag_base = flag_base;
  s->zip64 = zip64;
  atomic_fetch_add(&parts_pipelined, 1);
  return enqueue(p, s);
}

int zipWriteInFileInZip(void *file, const void *buf, unsigned len) {
  pipeline *p = find(file);
  if (p == NULL) {
    write_fn next = (write_fn)next_symbol("zipWriteInFileInZip");
    return next == NULL ? zip_internal_error : next(file, buf, len);
  }
  if (len == 0) return zip_ok;
  if (buf == NULL) return zip_param_error;
  step *s = malloc(sizeof *s + len);
  if (s == NULL) return zip_internal_error;
  memset(s, 0, sizeof *s);
  s->kind = step_write;
  s->length = len;
  memcpy(s->data, buf, len);
  return enqueue(p, s);
}

int zipCloseFileInZip(void *file) {
  pipeline *p = find(file);
  if (p == NULL) {
    close_part_fn next = (close_part_fn)next_symbol("zipCloseFileInZip");
    return next == NULL ? zip_internal_error : next(file);
  }
  step *s = calloc(1, sizeof *s);
  if (s == NULL) return zip_internal_error;
  s->kind = step_close;
  return enqueue(p, s);
}

int zipClose(void *file, const char *global_comment) {
  pipeline *p = find(file);
  int failure = zip_ok, failure_errno = 0;
  if (p != NULL) {
    // Every queued call is made before the ZIP's directory is written.
    pthread_mutex_lock(&p->lock);
    p->closing = 1;
    pthread_cond_broadcast(&p->changed);
    while (!p->finished) pthread_cond_wait(&p->changed, &p->lock);
    failure = p->failure;
    failure_errno = p->failure_errno;
    pthread_mutex_unlock(&p->lock);
    forget(p);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->changed);
    free(p);
  }
  close_zip_fn next = (close_zip_fn)next_symbol("zipClose");
  if (next == NULL) return zip_internal_error;
  int code = next(file, global_comment);
  if (failure != zip_ok) {
    errno = failure_errno;
    return failure;
  }
  return code;
}
