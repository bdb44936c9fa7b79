/* tprof-columns-names.c — format 3's names read straight from the file: the heap ids with one pread(), each global heap collection with one more, no HDF5 conversion per name. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tprof-h5-disk.h"
#include "tprof-h5-reader-private.h"

/* One global heap collection (docs: HDF5's file format, "Global Heap"),
 * read whole, its objects indexed: object i's data is
 * bytes[begin[i] .. begin[i] + length[i]) (begin 0: no such object). */
typedef struct
{
  uint64_t       addr;     /* as a heap id gives it: from the base address */
  unsigned char *bytes;
  size_t         n_index;
  uint64_t      *begin;
  uint64_t      *length;
} NamesCollection;

/* The collections read so far, ascending by address. */
typedef struct
{
  const TprofProfileFile *pf;
  uint64_t                base;       /* the user block: addresses count from its end */
  uint64_t                file_size;
  unsigned                addr_size;  /* the superblock's sizes of offsets and lengths */
  unsigned                len_size;
  NamesCollection        *cols;
  size_t                  n_cols;
  size_t                  cap_cols;
  size_t                  last;       /* the collection found last: the next name's, mostly */
  TprofError             *error;
} NamesHeap;

static void
names_heap_clear (NamesHeap *h)
{
  for (size_t i = 0; i < h->n_cols; i++)
    {
      free (h->cols[i].bytes);
      free (h->cols[i].begin);
      free (h->cols[i].length);
    }
  free (h->cols);
}

/* Records object @index of collection @data at @begin, @length bytes
 * (a TprofH5HeapVisit). false when out of memory. */
static bool
names_collection_index (void    *data,
                        unsigned index,
                        uint64_t begin,
                        uint64_t length)
{
  NamesCollection *c = data;

  if (index >= c->n_index)
    {
      size_t n = (size_t) index + 1 > 2 * c->n_index ? (size_t) index + 1 : 2 * c->n_index;
      uint64_t *b = realloc (c->begin, n * sizeof *b);
      uint64_t *l = b != NULL ? realloc (c->length, n * sizeof *l) : NULL;

      if (b != NULL)
        c->begin = b;
      if (l == NULL)
        return false;
      c->length = l;
      memset (c->begin + c->n_index, 0, (n - c->n_index) * sizeof *b);
      c->n_index = n;
    }
  /* as HDF5 indexes them: a later object of the same index wins */
  c->begin[index] = begin;
  c->length[index] = length;
  return true;
}

/* Reads the collection at @addr into @c. NULL, or what is wrong. */
static const char *
names_collection_read (NamesHeap       *h,
                       NamesCollection *c,
                       uint64_t         addr)
{
  size_t header = _tprof_h5_heap_header_size (h->len_size);
  unsigned char head[16];
  uint64_t at = h->base + addr, size;

  *c = (NamesCollection) { .addr = addr };
  if (addr > h->file_size || at > h->file_size || h->file_size - at < header
      || _tprof_h5_pread_all (h->pf->fd, head, header, (off_t) at) != 0)
    return "lies past the end of the file";
  if (!_tprof_h5_heap_is_collection (head))
    return "is not a global heap collection";
  size = _tprof_h5_heap_collection_size (head, h->len_size);
  if (size < header || size > h->file_size - at)
    return "runs past the end of the file";
  if ((c->bytes = malloc ((size_t) size)) == NULL)
    return "is too large for the memory available";
  if (_tprof_h5_pread_all (h->pf->fd, c->bytes, (size_t) size, (off_t) at) != 0)
    return "cannot be read";
  return _tprof_h5_heap_walk (c->bytes, size, h->len_size, names_collection_index, c);
}

/* The collection at @addr, read when first asked for; NULL with the
 * error set, naming row @row. */
static const NamesCollection *
names_heap_collection (NamesHeap *h,
                       uint64_t   addr,
                       size_t     row)
{
  size_t lo = 0, hi = h->n_cols;
  NamesCollection c;
  const char *problem;

  /* names written one after the other lie in one collection after the
   * other: the last one found, before a search */
  if (h->last < h->n_cols && h->cols[h->last].addr == addr)
    return &h->cols[h->last];
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (h->cols[mid].addr < addr)
        lo = mid + 1;
      else
        hi = mid;
    }
  h->last = lo;
  if (lo < h->n_cols && h->cols[lo].addr == addr)
    return &h->cols[lo];
  if (h->n_cols == h->cap_cols)
    {
      size_t cap = h->cap_cols != 0 ? 2 * h->cap_cols : 8;
      NamesCollection *cols = realloc (h->cols, cap * sizeof *cols);

      if (cols == NULL)
        {
          tprof_error_set (h->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", h->pf->path);
          return NULL;
        }
      h->cols = cols;
      h->cap_cols = cap;
    }
  problem = names_collection_read (h, &c, addr);
  memmove (h->cols + lo + 1, h->cols + lo, (h->n_cols - lo) * sizeof c);
  h->cols[lo] = c;
  h->n_cols++;
  if (problem == NULL)
    return &h->cols[lo];
  tprof_error_set (h->error, TPROF_ERROR_FORMAT, "%s: %s[%zu]: cannot be read: its global heap collection "
                   "(at byte %llu) %s", h->pf->path, _tprof_columns[TPROF_COL_OP_NAME].path, row,
                   (unsigned long long) (h->base + addr), problem);
  return NULL;
}

/* Row @row's name from its heap id @id: its bytes in the collection in
 * *@bytes (NULL for no string) and their number in *@length. */
static int
names_heap_find (NamesHeap            *h,
                 const unsigned char  *id,
                 size_t                row,
                 const unsigned char **bytes,
                 uint64_t             *length)
{
  TprofH5HeapId hid;
  const NamesCollection *c;

  _tprof_h5_heap_id_decode (id, h->addr_size, &hid);
  *bytes = NULL;
  *length = 0;
  /* address 0: no string (HDF5 reads a null pointer), refused as empty */
  if (hid.addr == 0)
    return 0;
  if ((c = names_heap_collection (h, hid.addr, row)) == NULL)
    return -1;
  if (hid.index >= c->n_index || c->begin[hid.index] == 0 || c->length[hid.index] != hid.length)
    return tprof_error_set (h->error, TPROF_ERROR_FORMAT, "%s: %s[%zu]: cannot be read: object %u of the "
                            "global heap collection at byte %llu %s", h->pf->path,
                            _tprof_columns[TPROF_COL_OP_NAME].path, row, (unsigned) hid.index,
                            (unsigned long long) (h->base + hid.addr),
                            hid.index >= c->n_index || c->begin[hid.index] == 0 ? "does not exist"
                            : "does not hold the name's length");
  *bytes = c->bytes + c->begin[hid.index];
  *length = hid.length;
  return 0;
}

/* The @n names whose heap ids @ids holds copied into one new block
 * *@block, each with its zero, out[i] pointing into it: one allocation,
 * not one a name (out[i] holds the name's place in its collection until
 * the block is made). */
static int
names_heap_copy (NamesHeap            *h,
                 const unsigned char  *ids,
                 size_t                n,
                 char                **out,
                 char                **block)
{
  size_t id_size = _tprof_h5_heap_id_size (h->addr_size);
  uint64_t *lengths = malloc (n * sizeof *lengths);
  uint64_t total = 0;
  char *p;

  if (lengths == NULL)
    return tprof_error_set (h->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", h->pf->path);
  for (size_t i = 0; i < n; i++)
    {
      const unsigned char *bytes;

      if (names_heap_find (h, ids + i * id_size, i, &bytes, &lengths[i]) < 0)
        {
          free (lengths);
          return -1;
        }
      out[i] = (char *) bytes;
      /* each length is checked against its collection, held in memory */
      total += lengths[i] + 1;
    }
  if (total > SIZE_MAX || (*block = malloc ((size_t) total)) == NULL)
    {
      free (lengths);
      return tprof_error_set (h->error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", h->pf->path);
    }
  p = *block;
  for (size_t i = 0; i < n; i++)
    {
      if (lengths[i] > 0)
        memcpy (p, out[i], (size_t) lengths[i]);
      p[lengths[i]] = '\0';
      out[i] = p;
      p += lengths[i] + 1;
    }
  free (lengths);
  return 0;
}

/* Where the heap ids of @dset lie in the file (its @n ids, one
 * contiguous unfiltered run), and
 * the sizes it needs: false when the column is not so. */
static bool
names_heap_init (NamesHeap *h,
                 hid_t      dset,
                 size_t     n,
                 off_t     *offset)
{
  hid_t fcpl = H5Fget_create_plist (h->pf->file);
  hid_t dcpl = H5Dget_create_plist (dset);
  hid_t type = H5Dget_type (dset);
  size_t addr_size = 0, len_size = 0;
  hsize_t userblock = 0;
  struct stat st;
  haddr_t addr;
  bool plain;

  plain = fcpl >= 0 && dcpl >= 0 && type >= 0 && h->pf->fd >= 0 && fstat (h->pf->fd, &st) == 0
    && H5Pget_sizes (fcpl, &addr_size, &len_size) >= 0 && H5Pget_userblock (fcpl, &userblock) >= 0
    && (addr_size == 2 || addr_size == 4 || addr_size == 8) && (len_size == 2 || len_size == 4 || len_size == 8)
    && H5Tis_variable_str (type) > 0
    && H5Pget_layout (dcpl) == H5D_CONTIGUOUS && H5Pget_external_count (dcpl) == 0 && H5Pget_nfilters (dcpl) == 0
    && H5Dget_storage_size (dset) == (hsize_t) n * _tprof_h5_heap_id_size ((unsigned) addr_size);
  _tprof_h5_close (type);
  _tprof_h5_close (dcpl);
  _tprof_h5_close (fcpl);
  /* includes the user block, like the addresses pread() needs */
  if (!plain || (addr = H5Dget_offset (dset)) == HADDR_UNDEF || addr > (haddr_t) st.st_size)
    return false;
  h->base = userblock;
  h->file_size = (uint64_t) st.st_size;
  h->addr_size = (unsigned) addr_size;
  h->len_size = (unsigned) len_size;
  *offset = (off_t) addr;
  return true;
}

int
_tprof_columns_read_names (const TprofProfileFile *pf,
                           hid_t                   dset,
                           size_t                  n,
                           char                 ***names,
                           char                  **block,
                           TprofError             *error)
{
  NamesHeap h = { .pf = pf, .error = error };
  unsigned char *ids = NULL;
  char **out = NULL;
  size_t id_size;
  off_t offset;
  int result = 0;

  *names = NULL;
  *block = NULL;
  if (n == 0 || !names_heap_init (&h, dset, n, &offset))
    return 0;
  id_size = _tprof_h5_heap_id_size (h.addr_size);
  if ((ids = malloc (n * id_size)) == NULL || (out = malloc (n * sizeof *out)) == NULL)
    result = tprof_error_set (error, TPROF_ERROR_NO_MEMORY, "%s: out of memory", pf->path);
  else if (_tprof_h5_pread_all (pf->fd, ids, n * id_size, offset) != 0)
    result = tprof_error_set (error, TPROF_ERROR_FORMAT, "%s: %s: cannot be read: the file ends first", pf->path,
                              _tprof_columns[TPROF_COL_OP_NAME].path);
  else
    result = names_heap_copy (&h, ids, n, out, block);
  names_heap_clear (&h);
  free (ids);
  if (result < 0)
    {
      free (out);
      return -1;
    }
  *names = out;
  return 1;
}
