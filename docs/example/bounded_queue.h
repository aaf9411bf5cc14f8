/* A bounded multi-producer multi-consumer FIFO queue of int64 values: an array of cells with sequence
 * numbers ([Vyukov10]), lock-free except that an operation which finds its cell claimed by another one in
 * progress waits for it. enqueue answers false when the queue is full, dequeue when it is empty.
 *
 * The example project of linfuzz (docs/example/README.md): the code a user would have, with one known bug
 * behind a switch (BQ_BUG, bounded_queue.c). */
#ifndef BOUNDED_QUEUE_H
#define BOUNDED_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bounded_queue bounded_queue;

/* A queue of `capacity` cells (a power of two, at least 2); NULL when out of memory or capacity is not one. */
bounded_queue *bq_create(size_t capacity);
void bq_destroy(bounded_queue *q);
/* Appends v; false (and nothing changed) when the queue holds `capacity` values. */
bool bq_enqueue(bounded_queue *q, int64_t v);
/* Takes the oldest value into *v; false when the queue is empty. */
bool bq_dequeue(bounded_queue *q, int64_t *v);

#endif
