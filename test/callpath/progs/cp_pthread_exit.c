/* main ends with pthread_exit while a worker still runs: the process must
 * end when the worker does (the call-path writer thread must not keep it
 * alive), and the call-path file must be written. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *worker(void *arg) {
  (void)arg;
  usleep(300000);
  printf("worker done\n");
  return NULL;
}

int main(void) {
  pthread_t t;
  if (pthread_create(&t, NULL, worker, NULL) != 0)
    return 1;
  pthread_exit(NULL);
}
