// The calls xlsx_zip_pipeline.c queues for a ZIP's own thread, and the deflating of one
// block of a part (xlsx_deflate_block.c). Private to CXlsxDeflate.
#ifndef RAON_XLSX_ZIP_STEP_H
#define RAON_XLSX_ZIP_STEP_H

#include <stddef.h>

// minizip's zip_fileinfo (zip.h): a tm_zip of six ints, then three unsigned longs.
typedef struct {
  int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year;
  unsigned long dos_date, internal_fa, external_fa;
} part_info;

enum { zip_ok = 0, zip_param_error = -102, zip_internal_error = -104 };
// step_block: bytes of a part the pipeline deflates itself; step_close_raw ends such a part.
enum step_kind { step_open, step_write, step_close, step_block, step_close_raw };
enum block_state { block_waiting, block_deflating, block_deflated, block_failed };

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
  // step_write: the bytes. step_block: the dictionary (`dictionary_length` bytes), then the
  // block's `length` bytes; how to deflate them, and once deflated, `out` and its CRC.
  size_t length;
  size_t dictionary_length;
  int last;
  int cut;   // step_open: the part is cut into blocks (opened raw)
  int text;  // step_block: zlib found it text (Z_TEXT), which minizip marks in the entry
  enum block_state state;
  unsigned char *out;
  size_t out_length;
  unsigned long crc;
  unsigned char data[];
} step;

// Frees a step and what it holds.
void raon_xlsx_free_step(step *s);

// Deflates block `s` (outside the pipeline's lock); 0 on success, -1 on failure.
int raon_xlsx_deflate_block(step *s);

#endif
