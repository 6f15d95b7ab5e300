/*
 * The broker's honest limit on this machine: a bare rabbitmq-c loop, with nothing of the project's in
 * between. It consumes COUNT pre-loaded jobs with prefetch PREFETCH, publishes a 420-byte persistent
 * result for each (mandatory, publisher confirms on), and acks each job once its result is confirmed:
 * the same broker work the worker does per job, at the least client cost C allows. apns-bench builds it
 * (cc -O2 against the system librabbitmq) and runs it; it prints "<jobs> <seconds> <CPU seconds>", both
 * from the first frame read to the last job settled.
 *
 *   bare-limit HOST PORT JOBS_QUEUE RESULTS_EXCHANGE COUNT PREFETCH
 *
 * Publishes go out in delivery order on the one channel that consumes, so the broker's confirm for
 * publish N answers delivery N: a confirm (multiple or not) is turned into the ack of the same tag with
 * the same flag, and one frame settles a whole run of jobs.
 */
#include <amqp.h>
#include <amqp_framing.h>
#include <amqp_tcp_socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static void die(const char *what, int status) {
    fprintf(stderr, "bare-limit: %s failed: %s\n", what, amqp_error_string2(status));
    exit(1);
}

static void check_reply(amqp_connection_state_t conn, const char *what) {
    amqp_rpc_reply_t reply = amqp_get_rpc_reply(conn);
    if (reply.reply_type != AMQP_RESPONSE_NORMAL) {
        fprintf(stderr, "bare-limit: %s failed (reply type %d)\n", what, reply.reply_type);
        exit(1);
    }
}

/* CPU seconds (user + system) of this process so far: the loop's own cost, without its start-up. */
static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: bare-limit HOST PORT JOBS_QUEUE RESULTS_EXCHANGE COUNT PREFETCH\n");
        return 2;
    }
    const char *host = argv[1], *queue = argv[3], *exchange = argv[4];
    int port = atoi(argv[2]);
    uint64_t count = strtoull(argv[5], NULL, 10);
    uint16_t prefetch = (uint16_t)atoi(argv[6]);

    amqp_connection_state_t conn = amqp_new_connection();
    amqp_socket_t *socket = amqp_tcp_socket_new(conn);
    int status = amqp_socket_open(socket, host, port);
    if (status != AMQP_STATUS_OK) die("connect", status);
    amqp_rpc_reply_t login = amqp_login(conn, "/", 0, AMQP_DEFAULT_FRAME_SIZE, 0, AMQP_SASL_METHOD_PLAIN, "guest", "guest");
    if (login.reply_type != AMQP_RESPONSE_NORMAL) { fprintf(stderr, "bare-limit: login failed\n"); return 1; }
    amqp_channel_open(conn, 1);
    check_reply(conn, "channel.open");
    amqp_confirm_select(conn, 1);
    check_reply(conn, "confirm.select");
    amqp_basic_qos(conn, 1, 0, prefetch, 0);
    check_reply(conn, "basic.qos");
    amqp_basic_consume(conn, 1, amqp_cstring_bytes(queue), amqp_empty_bytes, 0, 0, 0, amqp_empty_table);
    check_reply(conn, "basic.consume");

    char result[420];
    memset(result, 'r', sizeof result);
    amqp_bytes_t body = { sizeof result, result };
    amqp_basic_properties_t properties;
    properties._flags = AMQP_BASIC_CONTENT_TYPE_FLAG | AMQP_BASIC_DELIVERY_MODE_FLAG;
    properties.content_type = amqp_cstring_bytes("application/json");
    properties.delivery_mode = 2;
    amqp_bytes_t results = amqp_cstring_bytes(exchange), key = amqp_cstring_bytes("result.delivered");

    double started = 0, cpu_started = 0;
    uint64_t settled = 0, highest = 0, body_left = 0;
    while (settled < count) {
        amqp_frame_t frame;
        status = amqp_simple_wait_frame(conn, &frame);
        if (status != AMQP_STATUS_OK) die("read", status);
        if (started == 0) {
            started = now_seconds();
            cpu_started = cpu_seconds();
        }
        int complete = 0;
        if (frame.frame_type == AMQP_FRAME_METHOD) {
            switch (frame.payload.method.id) {
            case AMQP_BASIC_DELIVER_METHOD:
                break;
            case AMQP_BASIC_ACK_METHOD: {
                amqp_basic_ack_t *confirm = frame.payload.method.decoded;
                if (amqp_basic_ack(conn, 1, confirm->delivery_tag, confirm->multiple) != AMQP_STATUS_OK) die("ack", -1);
                settled += confirm->multiple ? confirm->delivery_tag - highest : 1;
                if (confirm->delivery_tag > highest) highest = confirm->delivery_tag;
                break;
            }
            default:
                fprintf(stderr, "bare-limit: unexpected method 0x%08x (a nack or a return)\n", frame.payload.method.id);
                return 1;
            }
        } else if (frame.frame_type == AMQP_FRAME_HEADER) {
            body_left = frame.payload.properties.body_size;
            complete = body_left == 0;
        } else if (frame.frame_type == AMQP_FRAME_BODY) {
            body_left -= frame.payload.body_fragment.len;
            complete = body_left == 0;
        }
        if (complete) {
            status = amqp_basic_publish(conn, 1, results, key, 1, 0, &properties, body);
            if (status != AMQP_STATUS_OK) die("publish", status);
        }
        amqp_maybe_release_buffers(conn);
    }
    printf("%llu %.3f %.4f\n", (unsigned long long)settled, now_seconds() - started, cpu_seconds() - cpu_started);
    amqp_channel_close(conn, 1, AMQP_REPLY_SUCCESS);
    amqp_connection_close(conn, AMQP_REPLY_SUCCESS);
    amqp_destroy_connection(conn);
    return 0;
}
