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
// A deflated part is cut into blocks of `block_size` bytes that worker threads (one per
// core, at most four) deflate at once, pigz's way: each block a raw deflate stream of its
// own, primed with the 32 KB before it as its dictionary, ended by a sync flush (the last
// by the end of the stream), so the blocks joined are one deflate stream; their CRCs are
// combined. The ZIP thread writes them in order, the part opened and closed raw
// (zipCloseFileInZipRaw64 with the size and CRC). Saving a workbook ended with one core
// deflating its largest sheets while the other had nothing left to do (bench/PROFILING.md,
// "Round four, session 6"). A part smaller than a block is one block with no dictionary:
// the same bytes as minizip's own deflate.
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
#include <unistd.h>
#include <zlib.h>
#include "xlsx_deflate.h"
#include "xlsx_zip_step.h"

typedef int (*open_part_fn)(
    void *, const char *, const void *, const void *, unsigned, const void *, unsigned, const char *, int, int,
    int, int, int, int, const char *, unsigned long, unsigned long, unsigned long, int);
typedef int (*write_fn)(void *, const void *, unsigned);
typedef int (*close_part_fn)(void *);
typedef int (*close_part_raw_fn)(void *, unsigned long long, unsigned long);
typedef int (*close_zip_fn)(void *, const char *);

static const size_t block_size = 1u << 20;
static const size_t dictionary_size = 32u << 10;
enum { most_workers = 4 };

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
  // The workers deflating blocks, and how many are still running.
  pthread_t workers[most_workers];
  int worker_count;
  // The ZIP thread's part being written raw: its size and CRC so far.
  unsigned long long part_size;
  unsigned long part_crc;
  // The saver's part being cut into blocks (touched by the saving thread alone).
  int cutting;
  int level, window_bits, mem_level, strategy;
  step *filling;
  unsigned char dictionary[32u << 10];
  size_t dictionary_length;
} pipeline;

static const size_t queue_limit = 32u << 20;
static atomic_int enabled = 1;
static atomic_long parts_pipelined = 0;
static atomic_long blocks_deflated = 0;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pipeline *registry = NULL;

void raon_xlsx_set_pipelined(int on) { atomic_store(&enabled, on != 0); }

long raon_xlsx_parts_pipelined(void) { return atomic_load(&parts_pipelined); }

long raon_xlsx_blocks_deflated(void) { return atomic_load(&blocks_deflated); }

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

static int write_bytes(void *zip, const unsigned char *bytes, size_t length) {
  write_fn write = (write_fn)next_symbol("zipWriteInFileInZip");
  if (write == NULL) return zip_internal_error;
  int code = write(zip, bytes, (unsigned)length);
  return code < 0 ? code : zip_ok;
}

static int make_call(const pipeline *p, const step *s) {
  void *zip = p->zip;
  switch (s->kind) {
  case step_open: {
    open_part_fn open_part = (open_part_fn)next_symbol("zipOpenNewFileInZip4_64");
    if (open_part == NULL) return zip_internal_error;
    return open_part(
        zip, s->name, s->has_info ? &s->info : NULL, NULL, 0, NULL, 0, NULL, s->method, s->level, s->raw,
        s->window_bits, s->mem_level, s->strategy, NULL, s->crc_for_crypting, s->version_made_by, s->flag_base,
        s->zip64);
  }
  case step_write: return write_bytes(zip, s->data, s->length);
  case step_close: {
    close_part_fn close_part = (close_part_fn)next_symbol("zipCloseFileInZip");
    return close_part == NULL ? zip_internal_error : close_part(zip);
  }
  case step_block: return s->out_length == 0 ? zip_ok : write_bytes(zip, s->out, s->out_length);
  case step_close_raw: {
    close_part_raw_fn close_raw = (close_part_raw_fn)next_symbol("zipCloseFileInZipRaw64");
    return close_raw == NULL ? zip_internal_error : close_raw(zip, p->part_size, p->part_crc);
  }
  }
  return zip_internal_error;
}

// Deflates waiting block `s`: the lock held on entry and on return, not meanwhile.
static void deflate_waiting(pipeline *p, step *s) {
  s->state = block_deflating;
  pthread_mutex_unlock(&p->lock);
  int failed = raon_xlsx_deflate_block(s);
  if (!failed) atomic_fetch_add(&blocks_deflated, 1);
  pthread_mutex_lock(&p->lock);
  s->state = failed ? block_failed : block_deflated;
}

// A worker: deflates the first waiting block of the queue, until the ZIP thread has ended.
static void *deflate_blocks(void *argument) {
  pipeline *p = argument;
  pthread_mutex_lock(&p->lock);
  for (;;) {
    step *s = NULL;
    if (p->failure == zip_ok)
      for (step *q = p->head; q != NULL; q = q->next)
        if (q->kind == step_block && q->state == block_waiting) { s = q; break; }
    if (s == NULL) {
      if (p->finished) break;
      pthread_cond_wait(&p->changed, &p->lock);
      continue;
    }
    deflate_waiting(p, s);
    pthread_cond_broadcast(&p->changed);
  }
  pthread_mutex_unlock(&p->lock);
  return NULL;
}

// Whether a worker is deflating a block of the queue (which must then stay allocated).
static int deflating_locked(const pipeline *p) {
  for (const step *q = p->head; q != NULL; q = q->next)
    if (q->kind == step_block && q->state == block_deflating) return 1;
  return 0;
}

// Whether block `s` is still to be deflated.
static int pending(const step *s) { return s->state == block_waiting || s->state == block_deflating; }

static void *run(void *argument) {
  pipeline *p = argument;
  pthread_mutex_lock(&p->lock);
  for (;;) {
    while (p->head == NULL && !p->closing) pthread_cond_wait(&p->changed, &p->lock);
    step *s = p->head;
    if (s == NULL) break;  // closing, and nothing left
    // A part cut into blocks is opened once its first block is deflated: minizip marks a
    // deflated part that zlib found to be text in the ZIP's directory, and does so from
    // its own stream, which a raw part has not; the mark goes in with the part's details.
    if (s->kind == step_open && s->cut) {
      for (;;) {
        step *first = s->next;
        if (first == NULL && p->closing) break;  // the part was never written
        if (first != NULL && first->state == block_waiting) deflate_waiting(p, first);
        else if (first == NULL || pending(first)) pthread_cond_wait(&p->changed, &p->lock);
        else break;
      }
      if (s->next != NULL && s->next->text && s->has_info) s->info.internal_fa |= Z_TEXT;
    }
    // A block is written once deflated: by a worker, or here when none has started on it.
    if (s->kind == step_block && s->state == block_waiting) deflate_waiting(p, s);
    while (s->kind == step_block && s->state == block_deflating) pthread_cond_wait(&p->changed, &p->lock);
    pthread_mutex_unlock(&p->lock);
    errno = 0;
    int code = s->kind == step_block && s->state == block_failed ? zip_internal_error : make_call(p, s);
    int saved_errno = errno;
    if (code == zip_ok && s->kind == step_block) {
      p->part_crc = crc32_combine(p->part_crc, s->crc, (z_off_t)s->length);
      p->part_size += s->length;
    } else if (s->kind == step_open) {
      p->part_crc = 0;
      p->part_size = 0;
    }
    pthread_mutex_lock(&p->lock);
    p->head = s->next;
    if (p->head == NULL) p->tail = NULL;
    p->queued -= s->length;
    raon_xlsx_free_step(s);
    if (code != zip_ok) {
      p->failure = code;
      p->failure_errno = saved_errno;
      // What is left is never written; a block a worker is deflating is freed after it.
      pthread_cond_broadcast(&p->changed);
      while (deflating_locked(p)) pthread_cond_wait(&p->changed, &p->lock);
      while (p->head != NULL) {
        step *dropped = p->head;
        p->head = dropped->next;
        raon_xlsx_free_step(dropped);
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
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int wanted = cores < 1 ? 1 : cores > most_workers ? most_workers : (int)cores;
  for (int i = 0; i < wanted; i++) {
    if (pthread_create(&p->workers[p->worker_count], NULL, deflate_blocks, p) != 0) break;
    p->worker_count += 1;
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
    raon_xlsx_free_step(s);
    return code != zip_ok ? code : zip_internal_error;
  }
  if (p->tail != NULL) p->tail->next = s; else p->head = s;
  p->tail = s;
  p->queued += s->length;
  pthread_cond_broadcast(&p->changed);
  pthread_mutex_unlock(&p->lock);
  return zip_ok;
}

// A new block for the part being cut, primed with the part's last 32 KB so far.
static step *new_block(pipeline *p) {
  step *s = malloc(sizeof *s + p->dictionary_length + block_size);
  if (s == NULL) return NULL;
  memset(s, 0, sizeof *s);
  s->kind = step_block;
  s->level = p->level;
  s->window_bits = p->window_bits;
  s->mem_level = p->mem_level;
  s->strategy = p->strategy;
  s->dictionary_length = p->dictionary_length;
  memcpy(s->data, p->dictionary, p->dictionary_length);
  return s;
}

// Queues the block being filled (the part's last when `last`), keeping its end as the
// next block's dictionary.
static int queue_block(pipeline *p, int last) {
  step *s = p->filling;
  p->filling = NULL;
  if (s == NULL) s = new_block(p);
  if (s == NULL) return zip_internal_error;
  s->last = last;
  const unsigned char *bytes = s->data + s->dictionary_length;
  if (s->length >= dictionary_size) {
    memcpy(p->dictionary, bytes + s->length - dictionary_size, dictionary_size);
    p->dictionary_length = dictionary_size;
  } else {
    // Short of 32 KB (a part's last block): what came before it still counts.
    size_t keep = p->dictionary_length + s->length > dictionary_size ? dictionary_size - s->length : p->dictionary_length;
    memmove(p->dictionary, p->dictionary + p->dictionary_length - keep, keep);
    memcpy(p->dictionary + keep, bytes, s->length);
    p->dictionary_length = keep + s->length;
  }
  return enqueue(p, s);
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
  // A deflated part with minizip's raw stream is cut into blocks here, and opened raw.
  p->cutting = method == Z_DEFLATED && raw == 0 && level != 0 && window_bits == -MAX_WBITS;
  if (p->cutting) {
    p->level = level;
    p->window_bits = window_bits;
    p->mem_level = mem_level;
    p->strategy = strategy;
    p->dictionary_length = 0;
    p->filling = NULL;
  }
  s->method = method;
  s->level = level;
  s->cut = p->cutting;
  s->raw = p->cutting ? 1 : raw;
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
  if (p->cutting) {
    const unsigned char *bytes = buf;
    while (len > 0) {
      if (p->filling == NULL && (p->filling = new_block(p)) == NULL) return zip_internal_error;
      step *b = p->filling;
      size_t room = block_size - b->length;
      size_t n = len < room ? len : room;
      memcpy(b->data + b->dictionary_length + b->length, bytes, n);
      b->length += n;
      bytes += n;
      len -= (unsigned)n;
      if (b->length == block_size) {
        int code = queue_block(p, 0);
        if (code != zip_ok) return code;
      }
    }
    return zip_ok;
  }
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
  int cut = p->cutting;
  if (cut) {
    p->cutting = 0;
    int code = queue_block(p, 1);
    if (code != zip_ok) return code;
  }
  step *s = calloc(1, sizeof *s);
  if (s == NULL) return zip_internal_error;
  s->kind = cut ? step_close_raw : step_close;
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
    for (int i = 0; i < p->worker_count; i++) pthread_join(p->workers[i], NULL);
    if (p->filling != NULL) raon_xlsx_free_step(p->filling);  // a part never closed
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
