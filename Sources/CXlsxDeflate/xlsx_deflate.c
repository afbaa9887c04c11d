// The deflate level of libxlsxwriter's ZIP container.
//
// libxlsxwriter (1.1.x, the Debian package) deflates every part of a workbook at zlib's
// default level 6 and has no option for it. Saving is the last step of a report and runs on
// one core: on two downloads a year apart (18 MB of sheet XML) level 6 took 0.22 s of the
// report's 0.80 s, level 3 about 0.10 s, for a file 12 % larger (bench/PROFILING.md,
// "Deflating the workbook"). Debian's libxlsxwriter writes its ZIP through the shared
// libminizip, so this file defines the one minizip call it makes to start a part: the
// executable's definition comes first in symbol lookup, and it forwards to libminizip's
// with the level chosen here. Where libxlsxwriter carries its own copy of minizip (other
// builds), this is never called and workbooks keep level 6: a test checks which applies.
#include <stdatomic.h>
#include "xlsx_deflate.h"

static atomic_int chosen_level = -1;

void raon_xlsx_set_deflate_level(int level) { atomic_store(&chosen_level, level); }

int raon_xlsx_deflate_level(void) { return atomic_load(&chosen_level); }

// minizip's prototype (zip.h), with its typedefs spelled out: uInt is unsigned int, uLong
// unsigned long, zipFile and zip_fileinfo* are pointers.
int zipOpenNewFileInZip4_64(
    void *file, const char *filename, const void *zipfi, const void *extrafield_local,
    unsigned size_extrafield_local, const void *extrafield_global, unsigned size_extrafield_global,
    const char *comment, int method, int level, int raw, int window_bits, int mem_level,
    int strategy, const char *password, unsigned long crc_for_crypting, unsigned long version_made_by,
    unsigned long flag_base, int zip64) {
  // Queued for the ZIP's own thread (xlsx_zip_pipeline.c), which makes libminizip's call.
  int chosen = atomic_load(&chosen_level);
  return raon_xlsx_open_part(
      file, filename, zipfi, extrafield_local, size_extrafield_local, extrafield_global,
      size_extrafield_global, comment, method, chosen >= 1 && chosen <= 9 ? chosen : level, raw,
      window_bits, mem_level, strategy, password, crc_for_crypting, version_made_by, flag_base, zip64);
}
