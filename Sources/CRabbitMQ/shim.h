#ifndef C_RABBITMQ_SHIM_H
#define C_RABBITMQ_SHIM_H

#include <amqp.h>
#include <amqp_framing.h>
#include <amqp_ssl_socket.h>
#include <amqp_tcp_socket.h>

// amqp_login is variadic (its SASL arguments follow the method); Swift cannot call C variadics.
static inline amqp_rpc_reply_t CRabbitMQ_login_plain(amqp_connection_state_t state, const char *vhost,
                                                     int channel_max, int frame_max, int heartbeat,
                                                     const amqp_table_t *client_properties,
                                                     const char *user, const char *password) {
    return amqp_login_with_properties(state, vhost, channel_max, frame_max, heartbeat, client_properties,
                                      AMQP_SASL_METHOD_PLAIN, user, password);
}

// The EXTERNAL mechanism (TLS client certificate) goes through the same variadic entry point.
static inline amqp_rpc_reply_t CRabbitMQ_login_external(amqp_connection_state_t state, const char *vhost,
                                                        int channel_max, int frame_max, int heartbeat,
                                                        const amqp_table_t *client_properties,
                                                        const char *identity) {
    return amqp_login_with_properties(state, vhost, channel_max, frame_max, heartbeat, client_properties,
                                      AMQP_SASL_METHOD_EXTERNAL, identity);
}

// Method ids are macros with a cast ((amqp_method_number_t) 0x...), which Swift does not import.
static inline amqp_method_number_t CRabbitMQ_method_basic_deliver(void) { return AMQP_BASIC_DELIVER_METHOD; }
static inline amqp_method_number_t CRabbitMQ_method_basic_ack(void) { return AMQP_BASIC_ACK_METHOD; }
static inline amqp_method_number_t CRabbitMQ_method_basic_nack(void) { return AMQP_BASIC_NACK_METHOD; }
static inline amqp_method_number_t CRabbitMQ_method_basic_return(void) { return AMQP_BASIC_RETURN_METHOD; }
static inline amqp_method_number_t CRabbitMQ_method_basic_cancel(void) { return AMQP_BASIC_CANCEL_METHOD; }
static inline amqp_method_number_t CRabbitMQ_method_channel_close(void) { return AMQP_CHANNEL_CLOSE_METHOD; }
static inline amqp_method_number_t CRabbitMQ_method_connection_close(void) { return AMQP_CONNECTION_CLOSE_METHOD; }
static inline amqp_method_number_t CRabbitMQ_method_connection_blocked(void) { return AMQP_CONNECTION_BLOCKED_METHOD; }
static inline amqp_method_number_t CRabbitMQ_method_connection_unblocked(void) { return AMQP_CONNECTION_UNBLOCKED_METHOD; }
static inline amqp_method_number_t CRabbitMQ_method_channel_close_ok(void) { return AMQP_CHANNEL_CLOSE_OK_METHOD; }
static inline amqp_method_number_t CRabbitMQ_method_connection_close_ok(void) { return AMQP_CONNECTION_CLOSE_OK_METHOD; }

#endif
