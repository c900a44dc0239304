#include "CAnnotationRecord.h"

#include <stdlib.h>

void annotation_records_free(annotation_record *records, int count)
{
	if (!records)
		return;
	for (int i = 0; i < count; i++) {
		annotation_record *r = &records[i];
		free(r->quads);
		free(r->ink);
		free(r->ink_counts);
		free(r->points);
		free(r->icon);
		free(r->font);
	}
	free(records);
}
