#ifndef RAON_XLSX_DEFLATE_H
#define RAON_XLSX_DEFLATE_H

/// Sets the zlib level (1–9) libxlsxwriter deflates a workbook's parts at, for every
/// workbook saved after the call; -1 restores the library's own (zlib's default, 6).
void raon_xlsx_set_deflate_level(int level);

/// The level last set (-1: the library's own).
int raon_xlsx_deflate_level(void);

/// Whether workbooks saved after the call deflate their parts on a thread of their own
/// while libxlsxwriter writes the next part (1, the default) or on the saving thread (0).
void raon_xlsx_set_pipelined(int on);

/// How many workbook parts were deflated on a ZIP's own thread since the process started.
long raon_xlsx_parts_pipelined(void);

/// How many blocks of deflated parts were deflated by the pipeline itself (a part is cut
/// into blocks of 1 MB deflated at once) since the process started.
long raon_xlsx_blocks_deflated(void);

/// Starts a part of a ZIP being saved (minizip's zipOpenNewFileInZip4_64, whose
/// arguments it takes): queued for the ZIP's own thread when pipelined, else made at once.
int raon_xlsx_open_part(
    void *file, const char *filename, const void *zipfi, const void *extrafield_local,
    unsigned size_extrafield_local, const void *extrafield_global, unsigned size_extrafield_global,
    const char *comment, int method, int level, int raw, int window_bits, int mem_level, int strategy,
    const char *password, unsigned long crc_for_crypting, unsigned long version_made_by,
    unsigned long flag_base, int zip64);

#endif
