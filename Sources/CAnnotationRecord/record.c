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

void signature_records_free(signature_record *records, int count)
{
	if (!records)
		return;
	for (int i = 0; i < count; i++) {
		signature_record *r = &records[i];
		free(r->field);
		free(r->signer);
		free(r->reason);
		free(r->location);
		free(r->date);
		free(r->sub_filter);
		free(r->ranges);
	}
	free(records);
}

static void free_strings(char **strings, int count)
{
	if (!strings)
		return;
	for (int i = 0; i < count; i++)
		free(strings[i]);
	free(strings);
}

void form_field_records_free(form_field_record *records, int count)
{
	if (!records)
		return;
	for (int i = 0; i < count; i++) {
		form_field_record *r = &records[i];
		free(r->name);
		free(r->value);
		free(r->default_value);
		free_strings(r->option_values, r->option_count);
		free_strings(r->option_labels, r->option_count);
		free(r->widget_pages);
		free(r->widget_rects);
		free_strings(r->widget_states, r->widget_count);
	}
	free(records);
}
