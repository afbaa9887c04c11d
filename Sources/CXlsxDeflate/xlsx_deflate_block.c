// Deflating one block of a workbook part (see xlsx_zip_pipeline.c): its bytes as a raw
// deflate stream primed with the 32 KB before it, so that the blocks joined are one stream.
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "xlsx_zip_step.h"

void raon_xlsx_free_step(step *s) {
  free(s->name);
  free(s->out);
  free(s);
}

// Deflates block `s` (outside the lock): its bytes as a raw deflate stream primed with its
// dictionary, ended by a sync flush, or by the stream's end for a part's last block.
int raon_xlsx_deflate_block(step *s) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, s->level, Z_DEFLATED, s->window_bits, s->mem_level, s->strategy) != Z_OK) return -1;
  int ok = s->dictionary_length == 0 || deflateSetDictionary(&z, s->data, (uInt)s->dictionary_length) == Z_OK;
  size_t capacity = deflateBound(&z, (uLong)s->length) + 64;
  s->out = malloc(capacity);
  ok = ok && s->out != NULL;
  z.next_in = s->data + s->dictionary_length;
  z.avail_in = (uInt)s->length;
  int flush = s->last ? Z_FINISH : Z_SYNC_FLUSH;
  while (ok) {
    z.next_out = s->out + z.total_out;
    z.avail_out = (uInt)(capacity - z.total_out);
    int code = deflate(&z, flush);
    if (s->last ? code == Z_STREAM_END : (code == Z_OK && z.avail_in == 0 && z.avail_out > 0)) break;
    if (code != Z_OK && code != Z_BUF_ERROR) { ok = 0; break; }
    // Out of room (never with deflateBound's margin, but cheap to allow): grow.
    unsigned char *bigger = realloc(s->out, capacity * 2);
    if (bigger == NULL) { ok = 0; break; }
    s->out = bigger;
    capacity *= 2;
  }
  s->out_length = z.total_out;
  s->text = z.data_type == Z_TEXT;
  deflateEnd(&z);
  s->crc = crc32(0L, s->data + s->dictionary_length, (uInt)s->length);
  return ok ? 0 : -1;
}
