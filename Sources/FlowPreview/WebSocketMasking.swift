import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Added when a WebSocket upgrade is accepted; once the upgrade is done it puts a
/// `MaskCheck` behind the frame decoder, lifts the connection's `RequestDeadline` and
/// leaves. (Hummingbird gives no place of its own to see a frame's mask.)
final class UpgradeWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case .upgradeComplete? = event as? HTTPServerUpgradeEvents else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        let ops = context.pipeline.syncOperations
        do {
            let decoder = try ops.context(handlerType: ByteToMessageHandler<WebSocketFrameDecoder>.self)
            try ops.addHandler(MaskCheck(), position: .after(decoder.handler))
            if let deadline = try? ops.handler(type: RequestDeadline.self) { ops.removeHandler(deadline, promise: nil) }
        } catch {
            context.close(promise: nil)  // no decoder: not the pipeline we know; refuse to go on
        }
        ops.removeHandler(context: context, promise: nil)
        context.fireUserInboundEventTriggered(event)
    }
}

/// RFC 6455, 5.1: a client masks every frame it sends, and a server closes the connection
/// with 1002 (protocol error) on one that is not masked, data and control frames alike.
/// NIO's decoder accepts them; this handler, right after it, does not.
final class MaskCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame
    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        let frame = unwrapInboundIn(data)
        guard frame.maskKey == nil else {
            context.fireChannelRead(data)
            return
        }
        closing = true
        var reason = context.channel.allocator.buffer(capacity: 2)
        reason.write(webSocketErrorCode: .protocolError)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: reason)))
            .whenComplete { _ in channel.close(promise: nil) }
    }
}
