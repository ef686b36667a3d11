// The libavahi-client.so.3 functions Detent calls, defined here as calls into the library
// opened on first use (see DetentLibrary.h). The libavahi-common ones are found through it:
// `dlsym` on a library's handle searches the libraries it depends on too.
#include <avahi-client/client.h>
#include <avahi-client/publish.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/thread-watch.h>
#include "DetentLibrary.h"
#include "AvahiCalls.h"

#define AVAHI_CALLS(F, V) \
    F(char *, avahi_alternative_service_name, (const char *s), (s)) \
    V(avahi_client_free, (AvahiClient *client), (client)) \
    F(int, avahi_client_errno, (AvahiClient *client), (client)) \
    F(AvahiClient *, avahi_client_new, (const AvahiPoll *poll, AvahiClientFlags flags, AvahiClientCallback callback, \
                                        void *userdata, int *error), (poll, flags, callback, userdata, error)) \
    F(int, avahi_entry_group_add_service_strlst, (AvahiEntryGroup *group, AvahiIfIndex interface, AvahiProtocol protocol, \
                                                  AvahiPublishFlags flags, const char *name, const char *type, \
                                                  const char *domain, const char *host, uint16_t port, AvahiStringList *txt), \
      (group, interface, protocol, flags, name, type, domain, host, port, txt)) \
    F(int, avahi_entry_group_commit, (AvahiEntryGroup *group), (group)) \
    F(int, avahi_entry_group_is_empty, (AvahiEntryGroup *group), (group)) \
    F(AvahiEntryGroup *, avahi_entry_group_new, (AvahiClient *client, AvahiEntryGroupCallback callback, void *userdata), \
      (client, callback, userdata)) \
    F(int, avahi_entry_group_reset, (AvahiEntryGroup *group), (group)) \
    V(avahi_free, (void *p), (p)) \
    F(const char *, avahi_strerror, (int error), (error)) \
    V(avahi_threaded_poll_free, (AvahiThreadedPoll *poll), (poll)) \
    F(const AvahiPoll *, avahi_threaded_poll_get, (AvahiThreadedPoll *poll), (poll)) \
    V(avahi_threaded_poll_lock, (AvahiThreadedPoll *poll), (poll)) \
    F(AvahiThreadedPoll *, avahi_threaded_poll_new, (void), ()) \
    F(int, avahi_threaded_poll_start, (AvahiThreadedPoll *poll), (poll)) \
    F(int, avahi_threaded_poll_stop, (AvahiThreadedPoll *poll), (poll)) \
    V(avahi_threaded_poll_unlock, (AvahiThreadedPoll *poll), (poll))

DETENT_OPENED_ON_FIRST_USE(AVAHI_CALLS, "libavahi-client.so.3", "mDNS", detent_avahi_load)
