#include "CAnnotationRecord.h"

#include <stdlib.h>

void annotation_records_free(annotation_record *records, int count)
{
	if (!records)
		return;
	for (int i = 0; i < count; i++) {
		annotation_record *r = &records[i];
		free(r->name);
		free(r->quads);
		free(r->ink);
		free(r->ink_counts);
		free(r->points);
		free(r->contents);
		free(r->author);
		free(r->subject);
		free(r->icon);
		free(r->created);
		free(r->modified);
		free(r->state);
		free(r->state_model);
		free(r->font);
	}
	free(records);
}
